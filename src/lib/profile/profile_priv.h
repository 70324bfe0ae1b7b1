/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Internals of struct sonde_profile (include/sonde/profile.h), shared by
 * the profile*.c files: samples are first summed into groups per (event,
 * thread keys, hash-consed stack); each group is expanded once into
 * histogram entries and call tree paths, so children mode costs per
 * distinct stack rather than per sample.
 */
#ifndef SONDE_PROFILE_PRIV_H
#define SONDE_PROFILE_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include "sonde/profile.h"
#include "anl.h"
#include "core_priv.h"

/* The samples of one (event, comm, pid, tid, cpu, stack). */
struct prof_group {
	int ev;
	const char *comm;
	int32_t pid, tid, cpu;
	struct anl_stack *st;
	uint64_t period, nr;
	uint64_t seq; /* first sample: entries are created in time order */
	uint64_t base_period, base_nr; /* a baseline's (sonde_profile__add_baseline()) */
};

/* Sample groups, allocated in blocks: one per distinct stack and thread keys. */
#define PROF_GROUP_BLOCK 4096

/* One counted sample of a timeline (opts.timeline): when, and its group. */
struct prof_tl {
	uint64_t time;
	struct prof_group *g;
};

struct prof_group_block {
	struct prof_group_block *prev;
	size_t used;
	struct prof_group v[PROF_GROUP_BLOCK];
};

/*
 * One node of an entry's call tree (uncompressed trie). Children mode
 * makes about 80 nodes per distinct 12-frame stack, millions in a big
 * profile: a node is kept to 48 bytes. What it shows (symbol, object,
 * ip) is read from the frame of the first path through it, which lives
 * as long as the profile; its self weight is its total less its
 * children's; its links are offsets in the profile's one node array.
 */
struct sonde_profile_node {
	uintptr_t key;		    /* what paths match on: the symbol, else the ip */
	const struct anl_frame *fr; /* NULL at an entry's root */
	uint64_t cumul;		    /* period of the paths through here */
	uint64_t nr_cumul;	    /* the same in samples (perf's -g ...,count) */
	int32_t child, sibling, parent; /* nodes at these offsets from this one; 0: none */
	uint32_t nr_children : 30;
	uint32_t by_ip : 1;  /* key is a raw ip: no symbol, or branch history */
	uint32_t has_br : 1; /* branch history counted it (p->node_br) */
};

struct prof_key {
	int ev;
	const char *comm;
	int32_t pid, tid, cpu;
	struct anl_dso *dso;
	const struct anl_sym *sym;
	uint64_t addr; /* when sym is NULL (or for srcline) */
	const char *srcline;
	char level;    /* 'k' or '.' */
	/*
	 * Identity, as perf compares entries: objects by short name, symbols
	 * by address range (inlined ones by name too), so the same binary
	 * at two paths, or two copies of a library, make one entry.
	 */
	const char *dso_id;
	uint64_t sym_start, sym_end;
	const char *sym_iname;
};

struct sonde_profile_entry {
	struct prof_key k;
	uint64_t self, children;
	uint64_t nr_self;
	uint64_t base_self, base_nr_self; /* the baseline's self weight and samples */
	uint32_t max_depth; /* longest call tree path (children ordering) */
	uint32_t root;	    /* chain's index + 1 while the trees are built */
	uint64_t seq;	    /* creation order: deterministic last tie-break */
	struct sonde_profile_node *chain; /* root (no symbol), NULL without trees */
	uint64_t expanded;  /* last sample group counted here (+1): one count each */
};

struct prof_event {
	char *name;
	struct sonde_perf_event_attr attr;
	struct sonde_record_fmt fmt;
	uint64_t *ids;
	size_t nr_ids;
	struct sonde_profile_event_stats stats;
	struct sonde_profile_event_stats base_stats; /* the baseline's */
	struct sonde_profile_entry **sorted; /* NULL until queried */
	size_t nr_sorted;
};

struct sonde_profile {
	/* options */
	bool keys[SONDE_PROFILE_KEY_MAX];
	enum sonde_profile_key order[SONDE_PROFILE_KEY_MAX];
	int nr_keys;
	bool callchains, trees, caller, children;

	/* filters */
	char **f_comm, **f_dso, **f_sym;
	size_t nr_f_comm, nr_f_dso, nr_f_sym;
	int32_t *f_pid, *f_tid;
	size_t nr_f_pid, nr_f_tid;
	uint8_t *f_cpu; /* bitmap of 4096 cpus or NULL */
	struct sonde_profile_time_range *f_time;
	size_t nr_f_time;

	/* events */
	struct prof_event *evs;
	int nr_evs, cap_evs;

	/* machine and stacks */
	struct anl_machine *m;
	struct anl_stacks *stacks;
	const struct sonde_perfdata_reader *reader;
	bool have_callchains;
	bool bounded; /* opts.max_stacks in force: no sample counted yet */
	uint32_t nr_stack_ids;
	uint64_t lost_records, lost, lost_samples;
	struct anl_frame *br_frames; /* sonde_profile__sample_branches()' answer */
	size_t cap_br_frames;
	struct prof_brhist *brhist; /* the histogram of branches (opts.branches) */
	struct anl_frame code_frame; /* sonde_profile__resolve()'s answer */

	/* branch history (opts.branch_history, profile_brchain.c) */
	bool branch_history;
	int chain_max_stack;	     /* perf's max_stack: branches and callchain frames */
	struct hashtab chains;	     /* of struct prof_chain */
	struct prof_brnode *brnodes; /* the trees' nodes' branch counts */
	uint32_t *node_br;	     /* per tree node: its brnodes index + 1; 0: none */
	size_t nr_brnodes, cap_brnodes;

	/* sample groups */
	struct hashtab groups; /* of struct prof_group */
	struct prof_group_block *gblocks;
	struct prof_group *last_group;

	/* every counted sample in order, with opts.timeline */
	bool timeline;
	struct prof_tl *tl;
	size_t nr_tl, cap_tl;

	/* the histogram, made from the groups at the first query */
	bool dirty;
	struct hashtab ents;	/* of struct sonde_profile_entry, by prof_key */
	size_t nr_ents;
	struct hashtab kids;	/* children of wide nodes of the tree being built
				 * (their index + 1: the array moves as it grows) */
	struct sonde_profile_node *node_v; /* every tree node, one array */
	size_t nr_nodes, cap_nodes;
};

#define prof_mix hashtab_mix

/* profile.c: sample groups (abort on OOM, as the machine's arena does). */
size_t prof_nr_groups(const struct sonde_profile *p);
struct prof_group *prof_group_get(struct sonde_profile *p, int ev, const char *comm, int32_t pid,
				  int32_t tid, int32_t cpu, struct anl_stack *st);
/* The groups in creation order (caller frees the array), count in *nr. */
struct prof_group **prof_groups_sorted(struct sonde_profile *p, size_t *nr);
int prof_event_new(struct sonde_profile *p, const struct sonde_perf_event_attr *attr,
		   const struct sonde_record_fmt *fmt, const uint64_t *ids, size_t nr_ids,
		   const char *name);

struct pdr_sample;
/* @ss of event @ev in the shape the stack code reads. */
void prof_sample_view(const struct prof_event *ev, const struct sonde_sample *ss,
		      struct pdr_sample *s);
/* The event a record belongs to: @event, else by its sample id; or -ENOENT. */
int prof_route(const struct sonde_profile *p, int event, const struct sonde_record *rec);

/* A reader's events that arrived since (pipes): made the profile's. */
int prof_sync_reader(struct sonde_profile *p);

/* A sample at @time on @cpu ((uint32_t)-1: unknown) is in the time and cpu slice. */
bool prof_in_slice(const struct sonde_profile *p, uint64_t time, uint32_t cpu);
/* The pid, tid and comm filters show the thread (@comm NULL: looked up). */
bool prof_thread_shown(struct sonde_profile *p, int32_t pid, int32_t tid, const char *comm);

/* profile_branch.c: one branch address resolved like a frame. */
void prof_branch_resolve(struct sonde_profile *p, struct anl_thread *t, bool kernel,
			 uint64_t addr, struct anl_frame *out);

/* profile_brchain.c: branch history (opts.branch_history). */
struct prof_hop;
/* The stack of a sample whose branches start its call chain (perf's order). */
struct anl_stack *prof_chain_stack(struct sonde_profile *p, int ei, uint16_t misc,
				   const struct pdr_sample *s, const struct sonde_record *rec,
				   struct anl_thread **tp);
/* Its frames' branch parts, one per frame. */
const struct prof_hop *prof_chain_hops(const struct anl_stack *st);
/* A path of @nr samples went through @node at frame @fr, @hops[@i] (@made: it made the node). */
void prof_chain_count(struct sonde_profile *p, struct sonde_profile_node *node,
		      const struct anl_frame *fr, const struct prof_hop *hops, int i, uint64_t nr,
		      bool made);
/* The trees are gone: so are their counts. */
void prof_chain_nodes_reset(struct sonde_profile *p);
void prof_chains_free(struct sonde_profile *p);

/* profile_brhist.c: the histogram of branches (opts.branches). */
struct prof_brhist;
/* Sets it up for @keys (NULL/0: perf's default). 0, or -1 with errno (EINVAL, ENOMEM). */
int prof_brhist_new(struct sonde_profile *p, const enum sonde_profile_key *keys, size_t nr);
void prof_brhist_free(struct sonde_profile *p);
/* Counts the branches of a decoded sample of event @ei: 1 if it was in the slice. */
int prof_brhist_add(struct sonde_profile *p, int ei, const struct sonde_record *rec);

/* profile_hist.c: the entries, (re)made from the groups when dirty. */
void prof_hist_build(struct sonde_profile *p);
void prof_hist_free(struct sonde_profile *p);
bool prof_entry_visible(const struct sonde_profile *p, const struct prof_key *k);

/* profile_tree.c: call trees of the entries (@hops: branch history's, or NULL). */
void prof_tree_add(struct sonde_profile *p, struct sonde_profile_entry *e,
		   const struct anl_frame *frames, const struct prof_hop *hops, int from, int dir,
		   int count, uint64_t period, uint64_t nr);
/*
 * The tree of the last entry is complete: its index of wide nodes goes.
 * prof_tree_add() then takes one entry's paths after another's, never
 * back to an entry done before.
 */
void prof_tree_next_entry(struct sonde_profile *p);
/* Every tree is complete: the entries get their roots' addresses. */
void prof_trees_done(struct sonde_profile *p, struct sonde_profile_entry **ents, size_t nr);
/* Frees every tree node of @p. */
void prof_trees_free(struct sonde_profile *p);

#endif /* SONDE_PROFILE_PRIV_H */
