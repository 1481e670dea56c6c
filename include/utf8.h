/* utf8.h: one strict UTF-8 check for every parser (no overlong forms, no surrogates, nothing
 * above U+10FFFF: what Python's strict decoder accepts). */
#ifndef GS_UTF8_H
#define GS_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid sequence at s (n bytes available, s[0] >= 0x80), or 0 when invalid.
 * Bytes are read in order and the first bad one stops it. */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/* True when the len-byte sequence at s is a C1 control (U+0080..U+009F), which 8-bit
 * terminals read as CSI and friends: text for a terminal replaces them. */
bool utf8_is_c1(const unsigned char *s, size_t len);

/* Replaces, in place, each control character, DEL, byte of a C1 control and byte of invalid
 * UTF-8 in s[0..n) with '?'. Text from files never reaches a terminal or a CSV without this. */
void utf8_sanitize(char *s, size_t n);

#endif
