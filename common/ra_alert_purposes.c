/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which purposes raise alerts (ra_alert.h): the list an operator gives
 * (robots_audit_alert_purposes, RobotsAuditAlertPurposes, logs
 * --alert-purposes) read into a set, and the test of a crawler against
 * it, so that every server and the CLI read the same words the same way.
 */
#include "ra_alert.h"

/* The purposes a list may name, for the error sentence: the table's
 * categories in ra_crawler_category_e order, then generic bots. */
#define RA_PURPOSE_WORDS \
    "search, ai-training, ai-search, ai-user, seo, social-preview, feed, " \
    "monitoring, archive, tool, academic, security-scanner or generic"

/* The bit of one word; 0 when it names no purpose. */
static unsigned
ra_purpose_bit(ra_str_t word)
{
    unsigned  c;

    if (ra_strcaseeq(word, ra_str("generic", 7))) {
        return RA_ALERT_GENERIC;
    }
    c = ra_crawler_category_of(word);
    return c < RA_CAT_MAX ? 1u << c : 0;
}

const char *
ra_alert_purposes_parse(ra_str_t list, unsigned *set, ra_str_t *bad)
{
    size_t    i = 0, start;
    unsigned  bit, add = 0;

    while (i < list.len) {
        if (ra_isspace(list.data[i]) || list.data[i] == ',') {
            i++;
            continue;
        }
        for (start = i; i < list.len && !ra_isspace(list.data[i])
                        && list.data[i] != ','; i++)
        {
            /* the word */
        }
        *bad = ra_str(list.data + start, i - start);
        if ((bit = ra_purpose_bit(*bad)) == 0) {
            return "is not a purpose: " RA_PURPOSE_WORDS;
        }
        add |= bit;
    }
    if (add == 0) {
        *bad = ra_str(list.data, 0);
        return "names no purpose: " RA_PURPOSE_WORDS;
    }
    *set |= add;
    return NULL;
}

int
ra_alert_purpose_wanted(unsigned set, const ra_crawler_t *crawler)
{
    unsigned  bit;

    if (set == 0) {
        return 1;
    }
    bit = crawler == NULL || crawler->category >= RA_CAT_MAX
          ? RA_ALERT_GENERIC : 1u << crawler->category;
    return (set & bit) != 0;
}
