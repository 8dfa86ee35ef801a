"""Hostile files for the fault tests and ``bench/bench_faults.py``: a small PNG that decodes to
hundreds of megabytes, and an enrolment gallery whose member inflates to a gigabyte. Both are
real files, built without ever holding their decoded size in memory."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path

import numpy as np


def huge_png(path: Path, width: int, height: int) -> Path:
    """A real 1-bit PNG of ``width`` x ``height`` white pixels, compressed row by row (a few tens
    of kilobytes on disk for hundreds of megabytes once decoded)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    squeeze, row = zlib.compressobj(9), b"\x00" + b"\xff" * ((width + 7) // 8)
    body = b"".join(squeeze.compress(row) for _ in range(height)) + squeeze.flush()
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
        + chunk(b"IDAT", body)
        + chunk(b"IEND", b"")
    )
    return path


def inflating_gallery(path: Path, megabytes: int) -> Path:
    """A gallery whose embeddings member is ``megabytes`` of zeros, a megabyte or so on disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = megabytes * 2**20 // 4
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("answers.npy", npy_bytes(np.array(["rat"] * 2)))
        with archive.open("embeddings.npy", "w", force_zip64=True) as member:
            header = io.BytesIO()
            np.lib.format.write_array_header_1_0(
                header, {"descr": "<f4", "fortran_order": False, "shape": (2, count // 2)}
            )
            member.write(header.getvalue())
            zeros = bytes(2**20)
            for _ in range(megabytes):
                member.write(zeros)
    return path


def npy_bytes(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()
