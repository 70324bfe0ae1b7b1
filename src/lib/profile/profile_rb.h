/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A red-black tree with the insertion rules of the kernel's rbtree (the
 * textbook ones), for the views that must come out in perf's order where
 * perf's comparisons are not a total order: then what a lookup meets,
 * and so what merges and in which order rows print, depends on the
 * tree's shape, which these rules reproduce. The caller walks down to
 * the link itself, with its own comparison, as perf does.
 */
#ifndef SONDE_PROFILE_RB_H
#define SONDE_PROFILE_RB_H

#include <stdbool.h>
#include <stddef.h>

struct prof_rb {
	struct prof_rb *left, *right, *parent;
	bool red;
};

struct prof_rb_root {
	struct prof_rb *top;
};

/* Puts @n at *@link (a NULL child slot of @parent, or the root) and rebalances. */
void prof_rb_insert(struct prof_rb_root *t, struct prof_rb *n, struct prof_rb *parent,
		    struct prof_rb **link);
/* In order: the leftmost node, then each one's successor; NULL at the end. */
struct prof_rb *prof_rb_first(const struct prof_rb_root *t);
struct prof_rb *prof_rb_next(const struct prof_rb *n);

#endif /* SONDE_PROFILE_RB_H */
