/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Date formats that page directives and sitemaps carry, checked for
 * form only (nothing is converted): the W3C profile of ISO 8601 that
 * sitemaps' lastmod must use, and the mail and HTTP dates (RFC 822/1123,
 * RFC 850) that Google also reads in unavailable_after.
 */
#ifndef RA_DATEFMT_H
#define RA_DATEFMT_H

#include "ra_core.h"

/* YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDThh:mmTZD, YYYY-MM-DDThh:mm:ssTZD
 * or with fractions of a second; TZD "Z" or "+hh:mm"/"-hh:mm". */
int ra_date_w3c(ra_str_t s);

/* "[Wkd, ]DD Mon YYYY hh:mm[:ss] ZONE" (RFC 822/1123, two-digit years
 * too) or "Weekday, DD-Mon-YY hh:mm:ss ZONE" (RFC 850); ZONE a name
 * such as GMT or PST, or +hhmm/-hhmm. */
int ra_date_mail(ra_str_t s);

#endif /* RA_DATEFMT_H */
