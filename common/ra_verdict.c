/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The names of verdicts and refusals, and the enforce scope (ra_verdict.h):
 * the words a configuration writes and the reports and alerts print, and
 * which of them a scope refuses.
 */
#include "ra_verdict.h"
#include "ra_verify.h"

static const char  *const ra_verdict_names[] = {
    "none", "fetch", "compliant", "violation", "stale", "unreachable",
    "exempt", "unknown"
};

const char *
ra_verdict_name(ra_verdict_e v)
{
    return (unsigned) v <= RA_VERDICT_UNKNOWN ? ra_verdict_names[v]
                                              : "invalid";
}

ra_str_t
ra_verdict_token(const ra_verdict_t *v)
{
    return ra_str(v->token, v->token_len < RA_NAME_MAX ? v->token_len
                                                       : RA_NAME_MAX);
}

ra_str_t
ra_verdict_pattern(const ra_verdict_t *v)
{
    return ra_str(v->pattern, v->pattern_len < RA_PATTERN_MAX
                              ? v->pattern_len : RA_PATTERN_MAX);
}

static const char  *const ra_refuse_names[RA_REFUSE_MAX] = {
    "none", "violation", "unreachable", "impostor", "policy", "undeclared"
};

const char *
ra_refuse_name(ra_refuse_e r)
{
    return (unsigned) r < RA_REFUSE_MAX ? ra_refuse_names[r] : "invalid";
}

static int
ra_enforce_is(ra_str_t word, const char *name)
{
    size_t  i;

    for (i = 0; i < word.len && name[i] != '\0'; i++) {
        if (ra_lower(word.data[i]) != name[i]) {
            return 0;
        }
    }
    return i == word.len && name[i] == '\0';
}

int
ra_enforce_word(ra_enforce_t *scope, ra_str_t word, const char **why)
{
    unsigned  r, add;

    if (ra_enforce_is(word, "off")) {
        add = RA_ENFORCE_OFF_WORD;
    } else if (ra_enforce_is(word, "on")) {
        add = RA_ENFORCE_ON;
    } else {
        /* a policy is its own directives' (ra_policy.h), no word here */
        for (r = RA_REFUSE_VIOLATION; r < RA_REFUSE_POLICY; r++) {
            if (ra_enforce_is(word, ra_refuse_names[r])) {
                break;
            }
        }
        if (r == RA_REFUSE_POLICY && ra_enforce_is(word, "undeclared")) {
            r = RA_REFUSE_UNDECLARED;
        }
        if (r == RA_REFUSE_POLICY) {
            *why = "the words are off, on, or any of violation, "
                   "unreachable, impostor, undeclared";
            return RA_ERROR;
        }
        add = 1u << r;
    }
    /* "off" with anything else: which one was meant? */
    if (*scope != RA_ENFORCE_OFF
        && ((*scope | add) & RA_ENFORCE_OFF_WORD))
    {
        *why = "\"off\" stands alone";
        return RA_ERROR;
    }
    *scope |= add;
    return RA_OK;
}

/* the refused counters follow ra_refuse_e */
_Static_assert(RA_CNT_REFUSED_IMPOSTOR - RA_CNT_REFUSED_VIOLATION
               == RA_REFUSE_IMPOSTOR - RA_REFUSE_VIOLATION
               && RA_CNT_REFUSED_UNREACHABLE - RA_CNT_REFUSED_VIOLATION
                  == RA_REFUSE_UNREACHABLE - RA_REFUSE_VIOLATION
               && RA_CNT_REFUSED_POLICY - RA_CNT_REFUSED_VIOLATION
                  == RA_REFUSE_POLICY - RA_REFUSE_VIOLATION,
               "ra_counter_e's refused counters in ra_refuse_e order");

ra_refuse_e
ra_enforce_refuses(ra_enforce_t scope, const ra_verdict_t *v)
{
    if (v->verdict == RA_VERDICT_NONE || v->verdict == RA_VERDICT_FETCH) {
        return RA_REFUSE_NONE;          /* not judged: never refused */
    }
    if ((scope & (1u << RA_REFUSE_IMPOSTOR))
        && v->verification == RA_VERIFY_IMPOSTOR)
    {
        return RA_REFUSE_IMPOSTOR;
    }
    if ((scope & (1u << RA_REFUSE_VIOLATION))
        && v->verdict == RA_VERDICT_VIOLATION)
    {
        return RA_REFUSE_VIOLATION;
    }
    if ((scope & (1u << RA_REFUSE_UNREACHABLE))
        && v->verdict == RA_VERDICT_UNREACHABLE)
    {
        return RA_REFUSE_UNREACHABLE;
    }
    return RA_REFUSE_NONE;
}
