#!/usr/bin/env bash
# macOS: a .dmg holding afdesk.app and a link to /Applications (drag to install).
#
#   python3 packaging/build.py        (makes dist/afdesk.app)
#   bash packaging/macos/build-dmg.sh
#
# Result: dist/afdesk-VERSION-macos-ARCH.dmg. The app opens .afenc files (its Info.plist,
# written by packaging/afdesk.spec, declares the type). Unsigned: the first start needs
# right-click > Open; sign and notarize with your Developer ID (codesign, notarytool) before
# handing it out. Uses hdiutil, which comes with macOS.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
app="$root/dist/afdesk.app"
[[ -d "$app" ]] || { echo "no $app: run python3 packaging/build.py first" >&2; exit 1; }
"$app/Contents/MacOS/afdesk" --self-test
version="$(/usr/libexec/PlistBuddy -c 'Print CFBundleShortVersionString' "$app/Contents/Info.plist")"
out="$root/dist/afdesk-$version-macos-$(uname -m).dmg"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -R "$app" "$stage/"
ln -s /Applications "$stage/Applications"
rm -f "$out"
hdiutil create -volname "afdesk $version" -srcfolder "$stage" -fs HFS+ -format UDZO -ov "$out"
echo "made $out"
