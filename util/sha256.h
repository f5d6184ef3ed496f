/* sha256.h: SHA-256 (FIPS 180-4) of a buffer: the HTML page's Content-Security-Policy hashes
 * of its inline script and style. */
#ifndef SS_SHA256_H
#define SS_SHA256_H

#include <stddef.h>

#define SS_SHA256_SIZE 32

/* Writes the SHA-256 digest of the 'len' bytes at 'data' into 'out'. */
void ss_sha256(const void *data, size_t len, unsigned char out[SS_SHA256_SIZE]);

#endif
