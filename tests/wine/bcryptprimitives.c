/*
 * bcryptprimitives.dll for wine 8.0 (Debian 12's), which lacks ProcessPrng: Go's Windows
 * runtime (1.22 and later) takes its random bytes from ProcessPrng and will not start without it.
 * This one export fills the buffer from BCryptGenRandom, the system's generator, which wine has.
 * tests/wine/run.sh builds it with mingw-w64 into the wine prefix the Windows tests use.
 */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size; /* BCryptGenRandom takes a ULONG */
		if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}
