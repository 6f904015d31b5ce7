#!/usr/bin/env bash
# Installs the afdesk tarball for this user (no root): the app under
# ~/.local/opt/afdesk, the `afdesk` command in ~/.local/bin, the menu entry, the icon and
# .afenc files opening in afdesk. Run it from the unpacked tarball: ./install.sh
# ./install.sh --uninstall removes all of it again, and afdesk's cache (~/.cache/afdesk: what
# makes a start quicker); crash journals and the GM's tile sets in the data folder stay.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/afdesk"
opt="${AFDESK_PREFIX:-$HOME/.local/opt}/afdesk"
bin="$HOME/.local/bin"

refresh() {
    command -v update-mime-database >/dev/null && update-mime-database "$data/mime" || true
    command -v update-desktop-database >/dev/null && update-desktop-database "$data/applications" || true
}

if [[ "${1:-}" == "--uninstall" ]]; then
    rm -rf "$opt" "$cache"
    rm -f "$bin/afdesk" "$data/applications/afdesk.desktop" "$data/mime/packages/afdesk.xml" \
        "$data/icons/hicolor/scalable/apps/afdesk.svg" "$data/icons/hicolor/256x256/apps/afdesk.png"
    refresh
    echo "afdesk is uninstalled."
    exit 0
fi

rm -rf "$opt.new"
mkdir -p "$(dirname "$opt")"
cp -a "$here/afdesk" "$opt.new"
rm -rf "$opt"
mv "$opt.new" "$opt"
mkdir -p "$bin"
ln -sf "$opt/afdesk" "$bin/afdesk"
install -d "$data/applications"
sed "s|^Exec=.*|Exec=\"$opt/afdesk\" %f|" "$here/afdesk.desktop" >"$data/applications/afdesk.desktop"
install -Dm644 "$here/afdesk.svg" "$data/icons/hicolor/scalable/apps/afdesk.svg"
install -Dm644 "$here/afdesk.png" "$data/icons/hicolor/256x256/apps/afdesk.png"
install -Dm644 "$here/afdesk-mime.xml" "$data/mime/packages/afdesk.xml"
refresh
if ! "$opt/afdesk" --self-test >/dev/null; then
    echo "afdesk is installed, but its self-test found problems: run  afdesk --self-test" >&2
    exit 1
fi
echo "afdesk is installed in $opt: look for it in your applications menu, or run  afdesk"
