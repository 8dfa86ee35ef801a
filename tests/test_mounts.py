"""Which file system holds the state directory, and whether it lives in RAM (Pi OS's overlay
file system keeps every change there: the queue would be lost at each power-off)."""

from __future__ import annotations

from kiosk.mounts import in_memory, mount_of, mounts

#: raspi-config's overlay file system with the state on its own ext4 partition, and a tmpfs.
OVERLAYROOT = """\
22 1 0:21 / /proc rw,relatime - proc proc rw
25 1 179:2 / /media/root-ro ro,relatime - ext4 /dev/mmcblk0p2 ro
26 1 0:24 / /media/root-rw rw,relatime - tmpfs tmpfs-root rw
1 0 0:25 / / rw,relatime - overlay overlayroot rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay,\
workdir=/media/root-rw/overlay-workdir/_
40 1 179:3 / /var/lib/kiosk rw,noatime - ext4 /dev/mmcblk0p3 rw,commit=5
41 1 0:30 / /run rw,nosuid - tmpfs tmpfs rw
42 1 0:31 / /mnt/with\\040space rw - ext4 /dev/sda1 rw
"""


def test_mounts_are_read_with_their_type_and_options() -> None:
    table = mounts(OVERLAYROOT)
    assert [m.point for m in table][:4] == ["/proc", "/media/root-ro", "/media/root-rw", "/"]
    assert table[3].fstype == "overlay" and "upperdir=/media/root-rw/overlay" in table[3].options
    assert table[-1].point == "/mnt/with space"


def test_the_deepest_mount_holds_a_path() -> None:
    table = mounts(OVERLAYROOT)
    assert mount_of("/var/lib/kiosk", table).fstype == "ext4"
    assert mount_of("/var/lib/kiosk/stamps.sqlite3", table).point == "/var/lib/kiosk"
    assert mount_of("/var/lib/kioskx", table).point == "/"
    assert mount_of("/run/user", table).fstype == "tmpfs"


def test_an_overlay_with_its_upper_layer_in_ram_is_in_memory() -> None:
    table = mounts(OVERLAYROOT)
    assert in_memory("/var/lib/kiosk", table) is False  # its own partition: kept
    assert in_memory("/home/kiosk", table) is True  # the root overlay: lost at power-off
    assert in_memory("/run/kiosk", table) is True
    docker = mounts("1 0 0:5 / / rw - overlay overlay rw,upperdir=/var/lib/docker/overlay2/x/diff\n")
    assert in_memory("/var/lib/kiosk", docker) is None  # its upper layer is not visible here
    assert in_memory("/x", []) is None
