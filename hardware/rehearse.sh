#!/usr/bin/env bash
# Rehearse the Raspberry Pi install without a Pi, as root on a Debian (or Ubuntu) machine:
#
#   sudo hardware/rehearse.sh 2>&1 | tee /tmp/rehearsal.log
#
# It builds an arm64 Debian Bookworm root with debootstrap (once: it is cached), runs it under
# qemu-user-static, copies this checkout in as user pi's clone and runs hardware/install.sh
# there. What only the Raspberry Pi's archive or board has is stood in for, and each stand-in is
# reported: the Pi-only apt packages (python3-picamera2, python3-lgpio, raspi-config ...) are
# empty packages from a local repository, so there is no camera, as with a loose cable; the
# firmware's config.txt and cmdline.txt are Pi OS Lite's; systemctl only edits unit links,
# since systemd does not run in a chroot. Then, inside the root: the install is not editable;
# `kiosk doctor --json` finds the models, SDL's kmsdrm driver and apt's numpy; a Debian C
# extension built on apt's numpy (python3-numexpr) still imports in the kiosk's venv; `kiosk
# recognize` names every card of a rendered scene; a 60-second headless demo holds; and `kiosk
# run --headless` with no camera comes up as the unit would, runs 20 s, keeps trying the camera
# and queues no stamp. Each step prints its output and [PASS] or [FAIL]; the last line is
# `rehearsal: N passed, M failed`, and the exit status is 1 when any step failed. Everything
# arm64 is emulated: on a 2-core x86 machine the debootstrap took 5 minutes, the rest 10.
#
# Environment:
#   KIOSK_REHEARSAL_CACHE   the root, apt's and pip's downloads (default /var/cache/kiosk-rehearsal)
#   KIOSK_REHEARSAL_MIRROR  the Debian mirror (default http://deb.debian.org/debian)
# Pip in the root gets this machine's pip settings (PIP_* variables need `sudo -E`) and the CA
# bundle pip uses here; only the Debian mirror and the package registries are reached.
# shellcheck disable=SC2317  # the steps are functions that step() runs through "$@"
set -uo pipefail

CACHE="$(realpath -m "${KIOSK_REHEARSAL_CACHE:-/var/cache/kiosk-rehearsal}")"
MIRROR="${KIOSK_REHEARSAL_MIRROR:-http://deb.debian.org/debian}"
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SUITE=bookworm
INCLUDE=ca-certificates,python3,sudo     # Pi OS Lite has these from the start
BASE="$CACHE/$SUITE-arm64"
ROOT="$CACHE/work"
# Paths inside the root
CHECKOUT=/home/pi/kiosk
PREFIX=/opt/kiosk
WORK=/var/lib/kiosk-rehearsal
CHECKS=/usr/local/lib/kiosk-rehearsal/rehearse_checks.py
STATE=/var/lib/kiosk
UNIT=/etc/systemd/system/kiosk.service
CA=/etc/ssl/kiosk-rehearsal-ca.pem
# A Debian package whose C code uses numpy's C API (import_array): it stands in for picamera2's
# simplejpeg, which an ABI-incompatible numpy in the venv would break the same way.
C_EXTENSION=python3-numexpr
C_MODULE=numexpr
# Only in the Raspberry Pi archive: stood in for by empty packages (with their Debian dependencies).
PI_ONLY=(python3-picamera2 python3-libcamera python3-simplejpeg python3-lgpio raspi-config rpicam-apps
         libcamera-apps)
declare -A PI_DEPENDS=(
    [python3-picamera2]="python3-numpy, python3-pil, python3-libcamera, python3-simplejpeg"
    [python3-simplejpeg]="python3-numpy"
)
DECK=affiche-belge
# Emulated, vision reads about one frame in 20 s while the demo's screen runs: too few to confirm a
# card in 60 s (the recognize step checks the names). On an arm64 machine the demo must confirm one.
DEMO_MIN_CONFIRMED=0
[ "$(uname -m)" != aarch64 ] || DEMO_MIN_CONFIRMED=1
PASSED=0
FAILED=0
ROOT_ENV=()

# step TITLE COMMAND...: run COMMAND under `set -e` in a subshell, its output indented, and count it.
step() {
    local title="$1" start=$SECONDS status
    shift
    printf '==> %s\n' "$title"
    (set -e; "$@") 2>&1 | sed -u 's/^/    /'
    status=${PIPESTATUS[0]}
    if [ "$status" -eq 0 ]; then
        PASSED=$((PASSED + 1))
        printf '[PASS] %s (%d s)\n' "$title" $((SECONDS - start))
    else
        FAILED=$((FAILED + 1))
        printf '[FAIL] %s (%d s, status %d)\n' "$title" $((SECONDS - start)) "$status"
    fi
    return "$status"
}

in_root() { timeout --kill-after=30 "${TIMEOUT:-1800}" chroot "$ROOT" /usr/bin/env -i "${ROOT_ENV[@]}" "$@"; }

# as_user USER HOME COMMAND...: in the root, as USER with that home as working directory.
as_user() {
    local user="$1" home="$2"
    shift 2
    in_root setpriv --reuid="$user" --regid="$user" --init-groups /usr/bin/env -C "$home" HOME="$home" "$@"
}

# checks PYTHON SUBCOMMAND ARGS...: one of hardware/rehearse_checks.py's checks, in the root
checks() {
    local python="$1"
    shift
    in_root "$python" "$CHECKS" "$@"
}

# The kiosk's environment as its unit sets it, but for what the rehearsal cannot have: the lgpio
# pin factory (no gpiochip; gpiozero's mock pins instead) and, for --headless, the video driver.
unit_env() {
    sed -n 's/^Environment=//p' "$ROOT$UNIT" | sed -e 's/^"//' -e 's/"$//' |
        grep -v -e '^GPIOZERO_PIN_FACTORY=' "$@"
    echo "STATE_DIRECTORY=$STATE"
}

release_root() {   # stop what still runs in the root, then unmount everything under it
    local proc pids=()
    for proc in /proc/[0-9]*; do
        [ "$(readlink "$proc/root" 2>/dev/null)" = "$ROOT" ] && pids+=("${proc#/proc/}")
    done
    if [ ${#pids[@]} -gt 0 ]; then
        kill "${pids[@]}" 2>/dev/null
        sleep 2
        kill -KILL "${pids[@]}" 2>/dev/null
    fi
    awk -v root="$ROOT" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r |
        while read -r mount; do umount "$mount" 2>/dev/null || umount -l "$mount"; done
}

finish() {
    release_root
    printf 'took %d s; the root stays in %s until the next run\n' "$SECONDS" "$ROOT"
    printf 'rehearsal: %d passed, %d failed\n' "$PASSED" "$FAILED"
    trap - EXIT
    exit $((FAILED > 0))
}

host_tools() {
    local missing=() emulate=yes
    [ "$(uname -m)" != aarch64 ] || emulate=no
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    if [ "$emulate" = yes ]; then
        [ -x /usr/bin/qemu-aarch64-static ] || missing+=(qemu-user-static)
        command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        echo "installing ${missing[*]}"
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
    if [ "$emulate" = no ]; then echo "an arm64 machine: nothing to emulate"; return 0; fi
    [ -e /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    # binfmt-support's service may not have run (no systemd here, or a policy that denied it)
    grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null || update-binfmts --enable qemu-aarch64
    # F: the kernel opens the interpreter now, so it works inside the chroot without a copy there
    grep -q '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
        { echo "qemu-aarch64 is registered without the F (fix binary) flag"; return 1; }
    grep -E '^(enabled|interpreter|flags)' /proc/sys/fs/binfmt_misc/qemu-aarch64
}

base_root() {
    local want="$SUITE arm64 $INCLUDE"
    if [ -f "$BASE.done" ] && [ "$(cat "$BASE.done")" = "$want" ]; then
        echo "cached: $BASE ($want)"
        return 0
    fi
    rm -rf --one-file-system "$BASE" "$BASE.partial" "$BASE.done"
    debootstrap --arch=arm64 --include="$INCLUDE" "$SUITE" "$BASE.partial" "$MIRROR"
    rm -f "$BASE.partial"/var/cache/apt/archives/*.deb
    mv "$BASE.partial" "$BASE"
    echo "$want" > "$BASE.done"
}

work_root() {
    release_root
    rm -rf --one-file-system "$ROOT"
    [ ! -e "$ROOT" ] || { echo "$ROOT cannot be removed"; return 1; }
    cp -a "$BASE" "$ROOT"
    mount --bind "$ROOT" "$ROOT"   # a mount point, as / is: doctor reads the state directory's medium
    # /dev holds only the nodes debootstrap made: no camera, no display, no serial port, no GPIO.
    mkdir -p "$ROOT/dev/pts" "$ROOT/dev/shm" "$CACHE/apt-archives/partial" "$CACHE/pip" "$ROOT/root/.cache/pip"
    mount -t proc proc "$ROOT/proc"
    mount -t sysfs -o ro sysfs "$ROOT/sys"
    mount -t devpts -o newinstance,ptmxmode=0666 devpts "$ROOT/dev/pts"
    mount -t tmpfs -o mode=1777 tmpfs "$ROOT/dev/shm"
    mount -t tmpfs -o mode=0755 tmpfs "$ROOT/run"
    mount --bind "$CACHE/apt-archives" "$ROOT/var/cache/apt/archives"
    mount --bind "$CACHE/pip" "$ROOT/root/.cache/pip"
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
    echo "$ROOT: a copy of $BASE; apt and pip downloads kept in $CACHE"
    in_root uname -m
}

# pip_settings: this machine's pip configuration files (root's, and the sudo user's) and the CA
# bundle pip trusts here; the bundle overrides any `cert` path, which would name the root's own.
pip_settings() {
    local user_home="" pair src dest bundle="" conf_cert
    [ -z "${SUDO_USER:-}" ] || user_home="$(getent passwd "$SUDO_USER" | cut -d: -f6)"
    for pair in /etc/pip.conf:/etc/pip.conf /etc/xdg/pip:/etc/xdg/pip \
                "$HOME/.config/pip:/root/.config/pip" "$HOME/.pip:/root/.pip" \
                ${user_home:+"$user_home/.config/pip:/root/.config/pip"} ${user_home:+"$user_home/.pip:/root/.pip"}; do
        src="${pair%:*}" dest="${pair##*:}"
        [ -e "$src" ] || continue
        mkdir -p "$ROOT$(dirname "$dest")"
        cp -rLT "$src" "$ROOT$dest"
        echo "pip settings: $src -> $dest"
    done
    compgen -e | grep -E '^PIP_' | sed 's/^/pip settings: $/' || true
    conf_cert="$(cat /etc/pip.conf /etc/xdg/pip/pip.conf "$HOME/.config/pip/pip.conf" "$HOME/.pip/pip.conf" 2>/dev/null |
                 sed -n 's/^ *cert *= *//p' | tail -n 1)"
    for src in "${PIP_CERT:-}" "$conf_cert" "${REQUESTS_CA_BUNDLE:-}" "${SSL_CERT_FILE:-}" \
               /etc/ssl/certs/ca-certificates.crt; do
        if [ -n "$src" ] && [ -f "$src" ]; then bundle="$src"; break; fi
    done
    [ -n "$bundle" ] || { echo "no CA bundle found for pip"; return 1; }
    cp -L "$bundle" "$ROOT$CA"
    echo "CA bundle: $bundle -> $CA ($(grep -c BEGIN "$bundle") certificates)"
}

stand_in_deb() {   # stand_in_deb PACKAGE REPO: an empty package of that name
    local pkg="$1" repo="$2" tree
    tree="$(mktemp -d)"
    mkdir -p "$tree/DEBIAN" "$tree/usr/share/doc/$pkg"
    {
        echo "Package: $pkg"
        echo "Version: 0~rehearsal"
        echo "Architecture: all"
        echo "Maintainer: kiosk rehearsal <root@localhost>"
        [ -z "${PI_DEPENDS[$pkg]:-}" ] || echo "Depends: ${PI_DEPENDS[$pkg]}"
        echo "Description: empty stand-in for the Raspberry Pi archive's $pkg (hardware/rehearse.sh)"
    } > "$tree/DEBIAN/control"
    echo "Stands in for the Raspberry Pi archive's $pkg in the kiosk's rehearsal." > "$tree/usr/share/doc/$pkg/README"
    dpkg-deb --root-owner-group --build "$tree" "$repo/$pkg.deb" >/dev/null
    rm -rf "$tree"
    dpkg-deb --field "$repo/$pkg.deb"
    printf 'Filename: ./%s.deb\nSize: %s\nSHA256: %s\n\n' "$pkg" "$(stat -c %s "$repo/$pkg.deb")" \
        "$(sha256sum "$repo/$pkg.deb" | cut -d' ' -f1)"
}

firmware_files() {   # Pi OS Lite (Bookworm)'s /boot/firmware/config.txt and cmdline.txt, as first booted
    mkdir -p "$ROOT/boot/firmware"
    cat > "$ROOT/boot/firmware/config.txt" <<'EOF'
# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Automatically load overlays for detected DSI displays
display_auto_detect=1

# Automatically load initramfs files, if found
auto_initramfs=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

# Don't have the firmware create an initial video= setting in cmdline.txt.
# Use the kernel's default instead.
disable_fw_kms_setup=1

# Run in 64-bit mode
arm_64bit=1

# Disable compensation for displays with overscan
disable_overscan=1

# Run as fast as firmware / board allows
arm_boost=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
# This line should be removed if the legacy DWC2 controller is required
# (e.g. for USB device mode) or if USB support is not required.
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
EOF
    echo 'console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait' \
        > "$ROOT/boot/firmware/cmdline.txt"
}

copy_checkout() {   # the working tree as git sees it (tracked and untracked, not ignored), else all of it
    local dest="$ROOT$CHECKOUT"
    mkdir -p "$dest"
    if git -c safe.directory="$SOURCE" -C "$SOURCE" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -c safe.directory="$SOURCE" -C "$SOURCE" ls-files -z --cached --others --exclude-standard |
            (cd "$SOURCE" && while IFS= read -r -d '' f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done) |
            tar -C "$SOURCE" --null -T - -cf - | tar -C "$dest" -xf -
    else
        tar -C "$SOURCE" --exclude=.venv --exclude=.git --exclude=__pycache__ -cf - . | tar -C "$dest" -xf -
    fi
    echo "checkout: $SOURCE -> $CHECKOUT ($(find "$dest" -type f | wc -l) files)"
}

stand_ins() {
    local repo="$ROOT$WORK/stand-ins" pkg
    mkdir -p "$repo" "$(dirname "$ROOT$CHECKS")"
    for pkg in "${PI_ONLY[@]}"; do stand_in_deb "$pkg" "$repo"; done > "$repo/Packages"
    echo "deb [trusted=yes] file:$WORK/stand-ins ./" > "$ROOT/etc/apt/sources.list.d/kiosk-rehearsal.list"
    echo "apt: stand-ins for ${PI_ONLY[*]} in file:$WORK/stand-ins"
    firmware_files
    echo "firmware: Pi OS Lite's /boot/firmware/config.txt and cmdline.txt"
    printf '#!/bin/sh\n# kiosk rehearsal: no service starts in the chroot\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
    chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
    in_root dpkg-divert --local --rename --divert /usr/bin/systemctl.real --add /usr/bin/systemctl
    cat > "$ROOT/usr/bin/systemctl" <<'EOF'
#!/bin/sh
# kiosk rehearsal: systemd does not run in a chroot. The real systemctl edits unit links (enable,
# disable) and ignores or refuses what needs a running systemd; each call is logged with its exit
# status. Under qemu-user it cannot tell that it runs in a chroot, so SYSTEMD_OFFLINE says so.
SYSTEMD_OFFLINE=1 /usr/bin/systemctl.real "$@"
status=$?
echo "$status $*" >> /var/log/kiosk-rehearsal-systemctl.log
exit $status
EOF
    chmod 0755 "$ROOT/usr/bin/systemctl"
    echo "systemctl: calls and their exit status logged to /var/log/kiosk-rehearsal-systemctl.log"
    in_root useradd --create-home --shell /bin/bash --groups sudo pi
    copy_checkout
    in_root chown -R pi:pi "$CHECKOUT"
    install -m 0644 "$SOURCE/hardware/rehearse_checks.py" "$ROOT$CHECKS"
    in_root apt-get update -q
    in_root /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$C_EXTENSION"
}

report_stand_ins() {   # [STUB]/[NOTE] lines: what stood in for the Pi, counted neither way
    local pkg status call
    for pkg in "${PI_ONLY[@]}"; do
        if in_root dpkg-query -W -f="\${Status}" "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            echo "[STUB] $pkg: installed as an empty stand-in (Raspberry Pi archive only)"
        fi
    done
    echo "[STUB] /boot/firmware/config.txt, cmdline.txt: Pi OS Lite's (the firmware is the Pi's own)"
    while read -r status call; do
        [ -z "$call" ] || echo "[STUB] systemctl $call: exit status $status (no systemd here: unit links only)"
    done < <(cat "$ROOT/var/log/kiosk-rehearsal-systemctl.log" 2>/dev/null)
    echo "[NOTE] board: no /proc/device-tree/model in the root; the installer and doctor see no Pi"
    echo "[NOTE] GPIO: the kiosk runs without GPIOZERO_PIN_FACTORY=lgpio (no gpiochip): gpiozero's mock pins"
}

installer() { in_root /bin/bash -c "cd $CHECKOUT && exec hardware/install.sh" </dev/null; }

unit_enabled() {
    local exec_start
    in_root /usr/bin/env SYSTEMD_OFFLINE=1 systemctl.real is-enabled kiosk.service
    exec_start="$(sed -n 's/^ExecStart=//p' "$ROOT$UNIT" | cut -d' ' -f1)"
    echo "ExecStart: $exec_start"
    [ -x "$ROOT$exec_start" ]
}

uart() {
    local config="$ROOT/boot/firmware/config.txt" cmdline="$ROOT/boot/firmware/cmdline.txt"
    grep -nE '^(enable_uart|dtparam=uart)' "$config" || echo "config.txt: no UART line"
    echo "cmdline.txt: $(cat "$cmdline")"
    # the line must stand in the [all] section (Pi OS's file ends with [all])
    awk '/^\[/ { section = $0 } /^enable_uart=1/ || /^dtparam=uart0=on/ { if (section == "" || section == "[all]") ok = 1 }
         END { exit !ok }' "$config"
    ! grep -qE 'console=(serial0|ttyAMA0|ttyAMA10|ttyS0),' "$cmdline"
}

not_editable() { in_root /usr/bin/env -C / "$PREFIX/.venv/bin/python" "$CHECKS" installed "$PREFIX"; }

doctor() {
    local env
    mapfile -t env < <(unit_env)
    as_user kiosk "$STATE" "${env[@]}" "$PREFIX/.venv/bin/kiosk" doctor --json > "$ROOT$WORK/doctor.json" ||
        echo "doctor: a non-zero status (some checks fail without the Pi's hardware)"
    checks python3 doctor "$WORK/doctor.json"
}

recognize() {
    as_user pi /home/pi "$PREFIX/.venv/bin/kiosk" render scene --deck "$DECK" --cards 5 --seed 1 --no-overlap \
        -o /home/pi/rehearsal-scene.png --truth /home/pi/rehearsal-scene.json
    as_user pi /home/pi "$PREFIX/.venv/bin/kiosk" recognize --deck "$DECK" --json rehearsal-scene.png \
        > "$ROOT/home/pi/rehearsal-reading.json"
    checks python3 recognize /home/pi/rehearsal-scene.json /home/pi/rehearsal-reading.json
}

demo() {
    as_user pi /home/pi "$PREFIX/.venv/bin/kiosk" demo --seconds 60 --headless --out /home/pi/rehearsal-demo
    checks python3 demo --min-confirmed "$DEMO_MIN_CONFIRMED" /home/pi/rehearsal-demo/summary.json
}

no_camera_run() {   # as the unit would start it, with no camera at all
    local env status=0
    mapfile -t env < <(unit_env -e '^SDL_VIDEODRIVER=')
    checks python3 service --seconds 20 --log "$WORK/run.log" \
        setpriv --reuid=kiosk --regid=kiosk --init-groups /usr/bin/env -C "$STATE" HOME="$STATE" "${env[@]}" \
        "$PREFIX/.venv/bin/kiosk" run --headless || status=$?
    echo "its last lines:"
    tail -n 8 "$ROOT$WORK/run.log"
    return "$status"
}

# With no camera the kiosk keeps trying it (the vision worker's "camera unavailable" retries)
# rather than falling back to the virtual table, and takes no stamp.
no_camera_no_stamp() {
    echo "camera retries in the log: $(grep -c 'camera unavailable' "$ROOT$WORK/run.log")"
    grep -q 'camera unavailable' "$ROOT$WORK/run.log"
    checks python3 queue "$STATE/stamps.sqlite3"
}

[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }
trap finish EXIT
trap 'exit 130' INT TERM
ROOT_ENV=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
          TERM="${TERM:-dumb}" PIP_CERT="$CA" SSL_CERT_FILE="$CA" REQUESTS_CA_BUNDLE="$CA")
while IFS= read -r var; do
    ROOT_ENV+=("$var=${!var}")
done < <(compgen -e | grep -E '^(PIP_|(http|https|no)_proxy$|(HTTP|HTTPS|NO)_PROXY$)' | grep -vx PIP_CERT)

echo "rehearsal of $SOURCE on an emulated arm64 Debian $SUITE ($(date -u +%FT%TZ))"
step "host: debootstrap, qemu-user-static, binfmt_misc" host_tools || finish
step "arm64 $SUITE root" base_root || finish
step "fresh root for this run" work_root || finish
step "pip settings and CA bundle from this machine" pip_settings || finish
step "stand-ins for the Pi, user pi's checkout, $C_EXTENSION from apt" stand_ins || finish
TIMEOUT=3600 step "installer: sudo hardware/install.sh" installer || finish
report_stand_ins
step "kiosk.service installed and enabled" unit_enabled
step "UART on, no serial console (config.txt, cmdline.txt)" uart
step "the install is not editable" not_editable
step "kiosk doctor --json (as the service would run it)" doctor
step "doctor: models found" checks python3 doctor "$WORK/doctor.json" models
step "doctor: SDL has kmsdrm" checks python3 doctor "$WORK/doctor.json" sdl
step "doctor: numpy is apt's" checks python3 doctor "$WORK/doctor.json" numpy
step "pygame's SDL has kmsdrm (SDL_GetVideoDriver)" checks "$PREFIX/.venv/bin/python" sdl
step "numpy in the kiosk's venv is apt's" checks "$PREFIX/.venv/bin/python" numpy
step "$C_EXTENSION (numpy's C API, from apt) imports in the venv" \
    checks "$PREFIX/.venv/bin/python" c-extension "$C_MODULE"
step "kiosk recognize: every card of a rendered scene named" recognize
step "kiosk demo: 60 s headless, at least $DEMO_MIN_CONFIRMED card(s) confirmed" demo
step "kiosk run --headless, no camera: ready, still running after 20 s" no_camera_run
step "kiosk run --headless, no camera: retries the camera, no stamp queued" no_camera_no_stamp
finish
