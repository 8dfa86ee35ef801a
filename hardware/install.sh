#!/usr/bin/env bash
# Install the card kiosk on a fresh Raspberry Pi OS Bookworm (Lite or desktop, 64-bit), as root:
#
#   sudo hardware/install.sh                 # fullscreen on KMS/DRM (Pi OS Lite)
#   sudo hardware/install.sh --desktop pi    # a fullscreen window in user pi's desktop
#
# It installs the apt packages (without their recommends), creates the `kiosk` user, copies the
# project to /opt/kiosk with a venv that sees apt's packages (picamera2, lgpio, numpy, pygame)
# and installs the kiosk there with pip under hardware/constraints-bookworm.txt, which keeps
# apt's numpy and pygame; it turns on the UART the printer is wired to (Pi 5: /dev/ttyAMA0,
# earlier Pis: /dev/serial0) with its login console off, writes /etc/kiosk/kiosk.toml if there
# is none, sets the printer's port and a new operator PIN in it, enables kiosk.service, and runs
# `kiosk doctor` as the service would (service stopped, from the state directory).
# Every step checks before it changes anything, so running it twice is safe (and is how an
# update is installed). Nothing is downloaded at run time of the kiosk, only here.
#
# The steps are the functions below, run in order at the end of this file. Environment:
#   KIOSK_ADMIN_PIN=NNNN     the operator PIN to set (4 to 8 digits) instead of asking for one;
#                            without it and without a terminal, a PIN is generated and shown once
#   KIOSK_INSTALL_SKIP_PI=1  skip what only a Raspberry Pi has: the Raspberry Pi archive's apt
#                            packages (python3-picamera2, python3-lgpio), raspi-config and the
#                            firmware's config.txt/cmdline.txt (for a rehearsal in an arm64 chroot;
#                            each skip is said)
set -euo pipefail

PREFIX=/opt/kiosk
CONFIG=/etc/kiosk/kiosk.toml
UNIT=/etc/systemd/system/kiosk.service
DROPIN=/etc/systemd/system/kiosk.service.d/desktop.conf
STATE=/var/lib/kiosk
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DESKTOP_USER=""
APT_PACKAGES=(python3-venv python3-pip python3-numpy python3-pygame rsync)
PI_APT_PACKAGES=(python3-picamera2 python3-lgpio)   # the Raspberry Pi archive's
GROUPS_WANTED=(video render input gpio dialout lp audio)
SKIP_PI="${KIOSK_INSTALL_SKIP_PI:-0}"
REBOOT=no

usage() {
    echo "usage: sudo $0 [--desktop USER] [--prefix DIR]" >&2
    exit 2
}

log() { printf '\033[1m==> %s\033[0m\n' "$*"; }
skipped() { printf '    skipped (KIOSK_INSTALL_SKIP_PI=1): %s\n' "$*"; }
kiosk() { "$PREFIX/.venv/bin/kiosk" "$@"; }

# The board, from the device tree: "Raspberry Pi 5 Model B Rev 1.0"; empty off a Pi.
board_model() {
    local file
    for file in /proc/device-tree/model /sys/firmware/devicetree/base/model; do
        if [ -r "$file" ]; then tr -d '\0' < "$file"; return 0; fi
    done
}
# systemd_running: booted with systemd (sd_booted); not so in a chroot or a container
systemd_running() { [ -d /run/systemd/system ]; }

apt_packages() {
    local wanted=("${APT_PACKAGES[@]}") missing=() pkg
    if [ "$SKIP_PI" = 1 ]; then skipped "${PI_APT_PACKAGES[*]}"; else wanted+=("${PI_APT_PACKAGES[@]}"); fi
    log "apt packages: ${wanted[*]}"
    for pkg in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        apt-get update
        # no recommends: picamera2's would pull a desktop's worth of Qt and OpenGL onto Pi OS Lite
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    fi
}

kiosk_user() {
    local group
    log "user kiosk and its groups"
    if ! id kiosk >/dev/null 2>&1; then
        useradd --system --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin kiosk
    fi
    for group in "${GROUPS_WANTED[@]}"; do
        if getent group "$group" >/dev/null; then
            usermod -aG "$group" kiosk
            [ -z "$DESKTOP_USER" ] || usermod -aG "$group" "$DESKTOP_USER"
        fi
    done
}

project_files() {
    log "project files in $PREFIX"
    mkdir -p "$PREFIX"
    if [ "$SOURCE" != "$PREFIX" ]; then
        rsync -a --delete --exclude .venv --exclude .git --exclude '__pycache__' --exclude build "$SOURCE"/ "$PREFIX"/
    fi
}

kiosk_venv() {
    log "venv with apt's packages (picamera2, lgpio, numpy, pygame), the kiosk installed in it"
    if [ ! -x "$PREFIX/.venv/bin/python" ]; then
        python3 -m venv --system-site-packages "$PREFIX/.venv"
    fi
    # The constraints keep apt's numpy (apt's picamera2 is built against it) and apt's pygame
    # (Debian's SDL has the kmsdrm video driver), and pick opencv and LiteRT wheels that take them.
    "$PREFIX/.venv/bin/pip" install --quiet --upgrade --upgrade-strategy only-if-needed \
        --constraint "$PREFIX/hardware/constraints-bookworm.txt" "$PREFIX"
}

# config_txt_line LINE: LINE in the firmware's config.txt, in its [all] section.
config_txt_line() {
    local config="$BOOT/config.txt"
    grep -qx "$1" "$config" && return 0
    if grep -qE '^\[' "$config" && [ "$(grep -E '^\[' "$config" | tail -n 1)" != "[all]" ]; then
        printf '\n[all]\n' >> "$config"
    fi
    echo "$1" >> "$config"
    REBOOT=yes
}

# header_uart: the printer's serial device on this board (kiosk.devices.gpio.header_uart)
header_uart() { "$PREFIX/.venv/bin/python" -c 'from kiosk.devices.gpio import header_uart; print(header_uart())'; }

printer_uart() {
    local model
    model="$(board_model)"
    log "UART for the printer on header pins 8 and 10 (${model:-not a Raspberry Pi}: $(header_uart)), no login console"
    if [ "$SKIP_PI" = 1 ]; then skipped "raspi-config, config.txt, cmdline.txt"; return 0; fi
    BOOT=/boot/firmware
    [ -f "$BOOT/config.txt" ] || BOOT=/boot
    if command -v raspi-config >/dev/null && grep -q do_serial_hw "$(command -v raspi-config)"; then
        # 0 = enable the serial hardware (Pi 5: dtparam=uart0=on, else enable_uart=1), 1 = no login shell on it
        if [ "$(raspi-config nonint get_serial_hw)" != "0" ]; then raspi-config nonint do_serial_hw 0; REBOOT=yes; fi
        if [ "$(raspi-config nonint get_serial_cons)" != "1" ]; then raspi-config nonint do_serial_cons 1; REBOOT=yes; fi
    else
        if [ "$(header_uart)" = /dev/ttyAMA0 ]; then  # Pi 5: UART0 on pins 8 and 10
            config_txt_line dtparam=uart0=on
        else
            config_txt_line enable_uart=1
        fi
        if grep -Eq 'console=(serial0|ttyAMA0|ttyAMA10|ttyS0),[0-9]+ ?' "$BOOT/cmdline.txt"; then
            sed -i -E 's/console=(serial0|ttyAMA0|ttyAMA10|ttyS0),[0-9]+ ?//' "$BOOT/cmdline.txt"
            REBOOT=yes
        fi
    fi
    systemctl disable --now serial-getty@ttyS0.service serial-getty@ttyAMA0.service 2>/dev/null || true
}

# operator_pin: a new operator PIN unless one is set already: KIOSK_ADMIN_PIN, else asked on the
# terminal (empty: generated), else generated; a generated one is shown here, once.
operator_pin() {
    local pin="${KIOSK_ADMIN_PIN:-}" generated=no
    if [ "$(kiosk config get kiosk.admin_pin --config "$CONFIG")" != "$(kiosk config get kiosk.admin_pin --default)" ]; then
        echo "    the operator PIN is already set (change it: kiosk config set kiosk.admin_pin NNNNNN --config $CONFIG)"
        return 0
    fi
    while true; do
        if [ -z "$pin" ] && [ -t 0 ]; then
            read -r -s -p "    new operator PIN, 4 to 8 digits (empty: make one up for me): " pin
            echo
        fi
        if [ -z "$pin" ]; then
            pin="$("$PREFIX/.venv/bin/python" -c 'import secrets; print(f"{secrets.randbelow(10**6):06d}")')"
            generated=yes
        fi
        if kiosk config set kiosk.admin_pin "$pin" --config "$CONFIG" >/dev/null; then break; fi
        [ -t 0 ] && [ -z "${KIOSK_ADMIN_PIN:-}" ] || return 1
        pin=""
    done
    if [ "$generated" = yes ]; then
        printf '\033[1m    operator PIN: %s  (write it down: it is shown only now)\033[0m\n' "$pin"
    else
        echo "    operator PIN set"
    fi
}

configuration() {
    local port
    log "configuration $CONFIG"
    if [ ! -f "$CONFIG" ]; then
        kiosk config init --config "$CONFIG"
    fi
    # Pi 5: the printer's UART is /dev/ttyAMA0 (its /dev/serial0 is the debug header)
    port="$(header_uart)"
    if [ "$(kiosk config get printer.serial_port --config "$CONFIG")" = /dev/serial0 ] && [ "$port" != /dev/serial0 ]; then
        kiosk config set printer.serial_port "$port" --config "$CONFIG"
    fi
    operator_pin
    chgrp kiosk "$CONFIG"  # it holds the operator PIN: readable by the kiosk, not by everyone
    chmod 0640 "$CONFIG"
}

systemd_unit() {
    local uid
    log "systemd unit"
    sed "s#/opt/kiosk#$PREFIX#g" "$PREFIX/systemd/kiosk.service" > "$UNIT.tmp"
    mv "$UNIT.tmp" "$UNIT"
    if [ -n "$DESKTOP_USER" ]; then
        uid="$(id -u "$DESKTOP_USER")"
        mkdir -p "$(dirname "$DROPIN")"
        sed -e "s/@DESKTOP_USER@/$DESKTOP_USER/g" -e "s/@DESKTOP_UID@/$uid/g" \
            "$PREFIX/systemd/kiosk-desktop.conf" > "$DROPIN"
        chgrp "$DESKTOP_USER" "$CONFIG"
    else
        rm -f "$DROPIN"
    fi
    if systemd_running; then systemctl daemon-reload; fi
    systemctl enable kiosk.service
}

# doctor: `kiosk doctor` as the service runs the kiosk: its user, environment and working
# directory (lgpio makes its notification pipes there), with the service stopped so that camera,
# printer and GPIO pins are free.
doctor() {
    local run_as=kiosk env=(KIOSK_CONFIG="$CONFIG" KIOSK_STATE_DIR="$STATE" GPIOZERO_PIN_FACTORY=lgpio
                            PYGAME_HIDE_SUPPORT_PROMPT=1)
    log "kiosk doctor"
    if [ -n "$DESKTOP_USER" ]; then  # as kiosk-desktop.conf runs it
        run_as="$DESKTOP_USER"
        env+=("SDL_VIDEODRIVER=wayland,x11" XDG_RUNTIME_DIR="/run/user/$(id -u "$DESKTOP_USER")"
              WAYLAND_DISPLAY=wayland-0 DISPLAY=:0)
    else
        env+=(SDL_VIDEODRIVER=kmsdrm)
    fi
    install -d -o "$run_as" -g "$run_as" -m 0750 "$STATE"
    systemctl stop kiosk.service 2>/dev/null || true
    if ! (cd "$STATE" && runuser -u "$run_as" -- env "${env[@]}" "$PREFIX/.venv/bin/kiosk" doctor); then
        echo "(fix what doctor reports as broken, then run it again as here: sudo systemctl stop kiosk;"
        echo " cd $STATE && sudo -u $run_as env ${env[*]} $PREFIX/.venv/bin/kiosk doctor)"
    fi
}

start() {
    if [ "$REBOOT" = yes ]; then
        log "done: reboot to enable the UART (sudo reboot); the kiosk starts at boot"
    elif ! systemd_running; then
        log "done: systemd is not running here; the kiosk starts at the next boot"
    else
        systemctl restart kiosk.service
        log "done: the kiosk is running (journalctl -u kiosk -f)"
    fi
}

while [ $# -gt 0 ]; do
    case "$1" in
        --desktop) [ $# -ge 2 ] || usage; DESKTOP_USER="$2"; shift 2 ;;
        --prefix) [ $# -ge 2 ] || usage; PREFIX="$2"; shift 2 ;;
        -h|--help) usage ;;
        *) usage ;;
    esac
done

[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }

apt_packages
kiosk_user
project_files
kiosk_venv
printer_uart
configuration
systemd_unit
doctor
start
