/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The flame tree both pictures draw (private): a string table, the
 * distinct frames (function, object, kind, source line) and the merged
 * stacks as a table of nodes with a parent index, root first. A node's
 * parent always has a smaller index, so one backward pass sums totals.
 * Built from sonde_profile__foreach_stack(), outermost caller at depth 1.
 * Column 0 holds the profile's weights; column 1 a diff's base profile.
 */
#ifndef SONDE_EXPORT_FLAME_H
#define SONDE_EXPORT_FLAME_H

#include <stdint.h>
#include "core_priv.h"
#include "sonde/profile.h"

struct flame_frame {
	uint32_t name, dso, src; /* string table indexes (0: "") */
	uint32_t kind;		 /* SONDE_PROFILE_FRAME_* */
};

struct flame_pkey {
	const char *name, *dso;
	uint32_t kind, frame;
};

struct flame_node {
	uint32_t parent; /* node 0 is the root and its own parent */
	uint32_t frame;	 /* unused for the root */
	uint32_t depth;
	uint64_t self[2], total[2]; /* weight per column */
	uint64_t samples[2];	    /* samples ending here per column */
	uint64_t total_samples[2];  /* samples here and below */
};

struct flame {
	char **strs;
	uint32_t nr_strs, cap_strs;
	struct flame_frame *frames;
	uint32_t nr_frames, cap_frames;
	struct flame_node *nodes;
	uint32_t nr_nodes, cap_nodes;
	uint32_t max_depth;
	struct hashtab str_ht, frame_ht, node_ht;
	/* (name, object pointer, kind) -> frame: the profile interns its
	 * strings, so most frames are found without hashing their text. */
	struct flame_pkey *pkeys;
	uint32_t nr_pkeys, cap_pkeys;
	struct hashtab pkey_ht;
	struct sonde_profile *p; /* the profile being added (srclines) */
	int col;
	/* column 0's leaf node by stack id (UINT32_MAX: none), for the
	 * samples of the HTML timeline */
	uint32_t *leaves;
	uint32_t nr_leaves, cap_leaves;
};

/* An empty tree holding only the root. 0 or -ENOMEM. */
int flame_init(struct flame *fl);
void flame_free(struct flame *fl);
/* Adds every stack of event @ev of @p into column @col. 0 or -errno. */
int flame_add_profile(struct flame *fl, struct sonde_profile *p, int ev, int col);
/* Sums self weights into totals (after the last flame_add_profile()). */
void flame_finish(struct flame *fl);
/*
 * The tree of event @ev of @p in column 0 and, when @baseline is not NULL,
 * of @baseline in column 1 (diffs), finished. 0, or -errno with nothing
 * left to free; on success flame_free() it.
 */
int flame_build(struct flame *fl, struct sonde_profile *p,
		struct sonde_profile *baseline, int ev);
/*
 * Children of every node, sorted by function name (as flamegraph.pl
 * draws them): node i's are @kids[@first[i] .. @first[i + 1]). Both
 * arrays are malloc'd for the caller to free. 0 or -ENOMEM.
 */
int flame_children(const struct flame *fl, uint32_t **first, uint32_t **kids);

#endif /* SONDE_EXPORT_FLAME_H */
