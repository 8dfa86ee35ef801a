"""The kiosk's hardware: stamp artwork, the thermal printer and its durable queue, LEDs, buttons,
systemd notification and the state directory. Each device takes a small frozen settings
dataclass and has a test double (python-escpos Dummy/File, gpiozero MockFactory)."""

import sys
import tempfile


def _import_escpos_profiles() -> None:
    """Import python-escpos' printer profiles with its cache folder cleaned away.

    At import the library makes a fresh ``mkdtemp()`` folder for its pickled profiles (even
    when ``ESCPOS_CAPABILITIES_PICKLE_DIR`` is set) and never removes it: one folder in /tmp per
    process, hundreds on a kiosk. That folder is made inside a scratch directory here, removed
    once the profiles are loaded; a fresh folder is never read again, so nothing is lost. On a
    full disk (no temporary folder can be made) the scratch directory is made in RAM, in
    /dev/shm, so that the kiosk still starts.
    """
    if "escpos.capabilities" in sys.modules:
        return
    for where in (None, "/dev/shm"):
        try:
            scratch = tempfile.TemporaryDirectory(prefix="kiosk-escpos-", dir=where)
        except OSError:
            continue
        with scratch:
            saved = tempfile.tempdir
            tempfile.tempdir = scratch.name
            try:
                import escpos.capabilities  # noqa: F401 - imported for its side effect, contained here
            finally:
                tempfile.tempdir = saved
        return


_import_escpos_profiles()
