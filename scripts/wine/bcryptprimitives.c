/* Test-only stand-in for bcryptprimitives.dll: wine 8.0 lacks ProcessPrng, which
 * Rust's std imports for its random seeds (Windows 10 and later have it). It lets the
 * exe start under wine in scripts/wine_check.sh; it is never put in the zip. */
#include <windows.h>
#include <ntsecapi.h> /* RtlGenRandom, i.e. advapi32's SystemFunction036 */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    /* RtlGenRandom takes a ULONG length: fill in chunks. */
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
