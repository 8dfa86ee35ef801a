"""The enrolment gallery: a venue teaches the kiosk the artwork of its own printed face deck.

``kiosk enroll --deck kakkerlakken-64 DIR`` reads one photo or scan per card, named by card id
(``rat-1.jpg``; for Cockroach Poker the species key ``rat.jpg`` does too), computes the face
model's embedding of each (and of the same turned upside down) and stores them in
``<state dir>/gallery/<deck>.npz``. The identifier then answers by nearest neighbour, so a
different printing of the deck works without retraining.

The file is read pickle-free and bounded: its size on disk, every member's declared size and
each array's header (dtype, shape) are checked before any data is read, so a truncated zip,
embeddings of the wrong shape or a member that inflates to a gigabyte give one clear line
(:class:`GalleryError`) and never a large allocation.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from kiosk.decks import load_deck
from kiosk.devices.state import atomic_write, state_dir
from kiosk.errors import KioskError
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.reading import Identification
from kiosk.vision.stills import read_image

#: Cosine similarity needed for an answer, and its lead over the best other card.
MIN_SIMILARITY = 0.75
MIN_SIM_MARGIN = 0.05
#: Above this probability of the model's "none" class the face is refused, gallery or not.
MAX_NONE = 0.5
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
#: A gallery file (and each array in it) is at most this large: 500 enrolled images both ways up
#: with 1,024-dimensional embeddings are 4 MB.
MAX_GALLERY_BYTES = 16 * 2**20
MAX_EMBEDDING_DIM = 4096
_HEADERS = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}


class GalleryError(KioskError):
    """A gallery file that cannot be used; the message says which file and why."""


def gallery_path(deck_id: str, directory: Path | None = None) -> Path:
    return (directory or state_dir()) / "gallery" / f"{deck_id}.npz"


def forget_gallery(deck_id: str, directory: Path | None = None) -> bool:
    """Remove the enrolled gallery of ``deck_id``; whether there was one. A file that cannot be
    removed is a :class:`GalleryError` naming it."""
    path = gallery_path(deck_id, directory)
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise GalleryError(f"{path}: cannot be removed ({exc.strerror or exc})") from None
    return True


@dataclass(frozen=True)
class Gallery:
    """Unit embeddings (``n, d``) and the answer each one stands for."""

    deck_id: str
    answers: tuple[str, ...]
    embeddings: np.ndarray

    @classmethod
    def load(cls, deck_id: str, directory: Path | None = None) -> Gallery | None:
        """The saved gallery of ``deck_id``, or None when the venue has not enrolled one."""
        path = gallery_path(deck_id, directory)
        if not path.is_file():
            return None
        try:
            answers, embeddings = _read_arrays(path)
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise GalleryError(f"{path}: unusable gallery ({exc}); run 'kiosk enroll' again") from None
        return cls(deck_id, tuple(str(a) for a in answers), embeddings.astype(np.float32))

    def save(self, directory: Path | None = None) -> Path:
        path = gallery_path(self.deck_id, directory)
        path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        np.savez(buf, answers=np.asarray(self.answers), embeddings=self.embeddings)
        atomic_write(path, buf.getvalue())
        return path

    def identify(self, embedding: np.ndarray, none_prob: float) -> Identification:
        """Nearest enrolled card by cosine similarity; refused when unsure or not a card."""
        sims = self.embeddings @ (embedding / (np.linalg.norm(embedding) + 1e-9))
        best_per: dict[str, float] = {}
        for answer, sim in zip(self.answers, sims, strict=True):
            best_per[answer] = max(best_per.get(answer, -1.0), float(sim))
        ranked = sorted(best_per.items(), key=lambda kv: -kv[1])
        best, conf = ranked[0]
        runner_up, second = ranked[1] if len(ranked) > 1 else (None, 0.0)
        margin = conf - second
        ok = conf >= MIN_SIMILARITY and margin >= MIN_SIM_MARGIN and none_prob <= MAX_NONE
        return Identification(best if ok else None, max(0.0, conf), runner_up, max(0.0, margin))


def as_face(image: np.ndarray) -> np.ndarray:
    """A scan or a photo cropped to the card, as an upright FACE_SIZE face (landscape turned)."""
    h, w = image.shape[:2]
    if w > h:
        image = np.ascontiguousarray(np.rot90(image))
    return cv2.resize(image, FACE_SIZE, interpolation=cv2.INTER_AREA)


def enrol_answer(deck_id: str, stem: str) -> str:
    """The answer a file named ``stem`` teaches: the card id, or for species decks the species."""
    deck = load_deck(deck_id)
    if stem in deck:
        card = deck[stem]
        return card.species or card.id
    if stem in deck.species:
        return stem
    raise KioskError(f"{stem!r} is not a card of {deck_id} (name each file by its card id)")


def build_gallery(deck_id: str, folder: Path, models_dir: Path | None = None) -> Gallery:
    """Embed every image of ``folder`` with the deck's face model (each face both ways up)."""
    from kiosk.vision.identify import Identifier

    deck = load_deck(deck_id)
    if deck.identify_by == "index":
        raise KioskError(
            f"{deck_id} is read from its corner index: its printing is enrolled from photos on the table "
            "(kiosk.vision.enrolled), not from face scans"
        )
    if deck.identify_by == "text":
        raise KioskError(f"{deck_id} is read from the text the kiosk printed on it; enrolment is for face decks")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise KioskError(f"{folder}: no images ({', '.join(IMAGE_SUFFIXES)}) named by card id")
    faces, answers = [], []
    for path in files:
        answer = enrol_answer(deck_id, path.stem)
        face = as_face(read_image(path))
        faces += [face, np.ascontiguousarray(face[::-1, ::-1])]
        answers += [answer, answer]
    identifier = Identifier(deck_id, models_dir)
    _, embed = identifier.scores(faces)
    if embed is None:
        raise KioskError(f"the model of {deck_id} has no embedding output; retrain it with 'kiosk train'")
    return Gallery(deck_id, tuple(answers), embed.astype(np.float32))


def _read_arrays(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """``answers`` (n strings) and ``embeddings`` (n, d finite floats) of a gallery file, each
    array's header checked before its data is read; ValueError says what is wrong."""
    if path.stat().st_size > MAX_GALLERY_BYTES:
        raise ValueError(f"over {MAX_GALLERY_BYTES // 2**20} MB")
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for name in ("answers", "embeddings"):
            info = archive.getinfo(f"{name}.npy")
            if info.file_size > MAX_GALLERY_BYTES:
                raise ValueError(f"{name} inflates to {info.file_size} bytes, over {MAX_GALLERY_BYTES}")
            with archive.open(info) as member:
                version = np.lib.format.read_magic(member)
                if version not in _HEADERS:
                    raise ValueError(f"{name} is in .npy format {version}, not 1.0 or 2.0")
                shape, _, dtype = _HEADERS[version](member)  # the header only, never the data
                ok = dtype.kind == "U" if name == "answers" else dtype.kind == "f"
                if not ok or dtype.hasobject:
                    raise ValueError(f"{name} has the wrong type {dtype}")
                if np.prod(shape, dtype=np.int64) * dtype.itemsize > info.file_size:
                    raise ValueError(f"{name}'s header claims more data than the file holds")
                arrays[name] = shape
    answers_shape, embed_shape = arrays["answers"], arrays["embeddings"]
    if len(answers_shape) != 1 or len(embed_shape) != 2 or embed_shape[0] != answers_shape[0]:
        raise ValueError(f"embeddings {embed_shape} do not match {answers_shape} answers")
    if not (answers_shape[0] >= 1 and 1 <= embed_shape[1] <= MAX_EMBEDDING_DIM):
        raise ValueError(f"embeddings of shape {embed_shape}: 1 to {MAX_EMBEDDING_DIM} dimensions for 1 answer or more")
    with np.load(path, allow_pickle=False) as data:
        answers, embeddings = data["answers"], data["embeddings"]
    if not np.isfinite(embeddings).all():
        raise ValueError("embeddings that are not finite")
    return answers, embeddings
