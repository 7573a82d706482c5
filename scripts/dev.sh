#!/bin/sh
# Set-up, build and run for a Debian bookworm machine (bare or not).
#   sh scripts/dev.sh app    install what is missing, build, start the desktop app
#   sh scripts/dev.sh test   install what is missing, build, run every test
# Running it again is harmless and fast: packages are only installed when missing, and the build is
# incremental.
set -eu

mode=${1:-}
case "$mode" in
app|test) ;;
*) echo "usage: sh scripts/dev.sh app|test" >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."

packages="cmake ninja-build g++ qt6-base-dev qt6-svg-dev libgl-dev zlib1g-dev fonts-dejavu-core"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "== installing:$missing"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
fi

build=${WESTPHALIA_BUILD_DIR:-build}
if [ ! -f "$build/build.ninja" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build" --parallel "$(nproc)"

if [ "$mode" = app ]; then
    shift
    exec "$build/app/westphalia" "$@"
fi
cd "$build"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)"
