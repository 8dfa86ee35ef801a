#!/usr/bin/env bash
# Install the card kiosk on a fresh Raspberry Pi OS Bookworm (Lite or desktop), as root:
#
#   sudo hardware/install.sh                 # fullscreen on KMS/DRM (Pi OS Lite)
#   sudo hardware/install.sh --desktop pi    # a fullscreen window in user pi's desktop
#
# It installs the apt packages, creates the `kiosk` user, copies the project to /opt/kiosk with
# a venv that sees the system's picamera2 and lgpio, enables the UART for the printer with its
# login console off, writes /etc/kiosk/kiosk.toml if there is none, and enables kiosk.service.
# Every step checks before it changes anything, so running it twice is safe (and is how an
# update is installed). Nothing is downloaded at run time of the kiosk, only here.
set -euo pipefail

PREFIX=/opt/kiosk
CONFIG=/etc/kiosk/kiosk.toml
UNIT=/etc/systemd/system/kiosk.service
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DESKTOP_USER=""
APT_PACKAGES=(python3-venv python3-pip python3-picamera2 python3-lgpio rsync)
GROUPS_WANTED=(video render input gpio dialout lp audio)
REBOOT=no

usage() {
    echo "usage: sudo $0 [--desktop USER] [--prefix DIR]" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --desktop) [ $# -ge 2 ] || usage; DESKTOP_USER="$2"; shift 2 ;;
        --prefix) [ $# -ge 2 ] || usage; PREFIX="$2"; shift 2 ;;
        -h|--help) usage ;;
        *) usage ;;
    esac
done

log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }

log "apt packages: ${APT_PACKAGES[*]}"
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

log "user kiosk and its groups"
if ! id kiosk >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/kiosk --no-create-home --shell /usr/sbin/nologin kiosk
fi
for group in "${GROUPS_WANTED[@]}"; do
    if getent group "$group" >/dev/null; then
        usermod -aG "$group" kiosk
        [ -z "$DESKTOP_USER" ] || usermod -aG "$group" "$DESKTOP_USER"
    fi
done

log "project files in $PREFIX"
mkdir -p "$PREFIX"
if [ "$SOURCE" != "$PREFIX" ]; then
    rsync -a --delete --exclude .venv --exclude .git --exclude '__pycache__' "$SOURCE"/ "$PREFIX"/
fi

log "venv with system site packages (picamera2, lgpio from apt)"
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
"$PREFIX/.venv/bin/pip" install --quiet --upgrade "$PREFIX"

log "UART for the printer on /dev/serial0, without the serial login console"
BOOT=/boot/firmware
[ -f "$BOOT/config.txt" ] || BOOT=/boot
if command -v raspi-config >/dev/null && grep -q do_serial_hw "$(command -v raspi-config)"; then
    # 0 = enable the serial hardware, 1 = no login shell on it
    if [ "$(raspi-config nonint get_serial_hw)" != "0" ]; then raspi-config nonint do_serial_hw 0; REBOOT=yes; fi
    if [ "$(raspi-config nonint get_serial_cons)" != "1" ]; then raspi-config nonint do_serial_cons 1; REBOOT=yes; fi
else
    if ! grep -q '^enable_uart=1' "$BOOT/config.txt"; then
        echo 'enable_uart=1' >> "$BOOT/config.txt"
        REBOOT=yes
    fi
    if grep -Eq 'console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?' "$BOOT/cmdline.txt"; then
        sed -i -E 's/console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?//' "$BOOT/cmdline.txt"
        REBOOT=yes
    fi
fi
systemctl disable --now serial-getty@ttyS0.service serial-getty@ttyAMA0.service 2>/dev/null || true

log "configuration $CONFIG"
if [ ! -f "$CONFIG" ]; then
    "$PREFIX/.venv/bin/kiosk" config init --file "$CONFIG"
fi
chgrp kiosk "$CONFIG"
chmod 0640 "$CONFIG"

log "systemd unit"
sed "s#/opt/kiosk#$PREFIX#g" "$PREFIX/systemd/kiosk.service" > "$UNIT.tmp"
mv "$UNIT.tmp" "$UNIT"
DROPIN=/etc/systemd/system/kiosk.service.d/desktop.conf
if [ -n "$DESKTOP_USER" ]; then
    uid="$(id -u "$DESKTOP_USER")"
    mkdir -p "$(dirname "$DROPIN")"
    sed -e "s/@DESKTOP_USER@/$DESKTOP_USER/g" -e "s/@DESKTOP_UID@/$uid/g" \
        "$PREFIX/systemd/kiosk-desktop.conf" > "$DROPIN"
    chgrp "$DESKTOP_USER" "$CONFIG"
else
    rm -f "$DROPIN"
fi
systemctl daemon-reload
systemctl enable kiosk.service

log "kiosk doctor"
if [ -n "$DESKTOP_USER" ]; then RUN_AS="$DESKTOP_USER"; else RUN_AS=kiosk; fi
install -d -o "$RUN_AS" -g "$RUN_AS" -m 0750 /var/lib/kiosk
runuser -u "$RUN_AS" -- env KIOSK_CONFIG="$CONFIG" KIOSK_STATE_DIR=/var/lib/kiosk \
    "$PREFIX/.venv/bin/kiosk" doctor || echo "(fix what doctor reports as broken, then run it again)"

if [ "$REBOOT" = yes ]; then
    log "done: reboot to enable the UART (sudo reboot); the kiosk starts at boot"
else
    systemctl restart kiosk.service
    log "done: the kiosk is running (journalctl -u kiosk -f)"
fi
