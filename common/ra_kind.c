/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A request's target kind, asked once and remembered for its later
 * phases (ra_kind.h): the word kept with a request and the memo of a
 * worker's last request.
 */
#include "ra_kind.h"

unsigned
ra_kind_word_path(unsigned *word, ra_str_t target, ra_str_t path)
{
    unsigned  kind;

    if (*word & RA_TARGET_KNOWN) {
        return ra_kind_known(*word);
    }
    /* the path alone when the server found where it ends: the core need
     * not search it for '?' and '#' */
    kind = path.data != NULL ? ra_http_path_kind(path)
                             : ra_http_target_kind(target);
    kind = (kind & ~RA_KIND_JUDGED) | RA_TARGET_KNOWN;
    *word = (*word & RA_KIND_JUDGED) | kind;
    return kind;
}

unsigned
ra_kind_word(unsigned *word, ra_str_t target)
{
    return ra_kind_word_path(word, target, ra_str(NULL, 0));
}
