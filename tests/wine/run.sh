#!/bin/sh
# run.sh PROGRAM.exe [ARGS...] runs a Windows program under Debian 12's wine (wine64 8.0), as
# `go test -exec` and $GPTNOTES_EXEC want: make test-windows runs the Windows build of gptnotes,
# and its test binaries, through it.
#
# The wine prefix ($WINEPREFIX, by default ~/.cache/gptnotes-wine) is made on first use, with
# bcryptprimitives.dll built from bcryptprimitives.c into its system32: wine 8.0 lacks the
# ProcessPrng that Go's Windows runtime needs to start. WINEDLLOVERRIDES makes wine load that
# native DLL; WINEDEBUG=-all keeps wine's own messages out of the program's output.
set -e
here=$(cd "$(dirname "$0")" && pwd)
WINEPREFIX=${WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/gptnotes-wine}
WINE=${WINE:-/usr/lib/wine/wine64}
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="bcryptprimitives=n;mscoree,mshtml="
dll="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
if [ ! -f "$dll" ] || [ "$here/bcryptprimitives.c" -nt "$dll" ]; then
	mkdir -p "$WINEPREFIX"
	"$WINE" wineboot --init >/dev/null 2>&1
	/usr/lib/wine/wineserver64 -w 2>/dev/null || wineserver -w 2>/dev/null || true
	x86_64-w64-mingw32-gcc -O2 -shared -o "$dll.tmp" "$here/bcryptprimitives.c" \
		"$here/bcryptprimitives.def" -lbcrypt
	mv "$dll.tmp" "$dll"
fi
exec "$WINE" "$@"
