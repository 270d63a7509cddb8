/* SPDX-License-Identifier: MIT */
/*
 * Ports declared unused (--ignore-port=DEV[:PORT],... and GDR_DOCTOR_IGNORE_PORTS):
 * every other hardware port that is not ACTIVE is a FAIL, as a dead rail is for
 * acceptance; a declared one is listed as INFO and left out of the verdict.
 */
#ifndef GDR_DOCTOR_IGNORE_H
#define GDR_DOCTOR_IGNORE_H

#include <stdbool.h>
#include <stddef.h>

/* Is list well formed (DEV or DEV:PORT, comma-separated, PORT 1..255)? 0, or -1 and why. */
int doc_ignore_parse(const char *list, char *why, size_t n);
/* Does list (NULL: empty) name port of dev, or dev as a whole? */
bool doc_ignore_match(const char *list, const char *dev, const char *port);
/*
 * The first entry of list naming a device not among names[0..n), copied to
 * buf (a typo hides nothing: the caller warns); false when every entry matched.
 */
bool doc_ignore_unknown(const char *list, char (*names)[64], int n, char *buf, size_t len);

#endif
