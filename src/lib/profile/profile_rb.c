// SPDX-License-Identifier: LGPL-2.1-only
/* Red-black insertion and in-order walk (profile_priv.h). */
#include "profile_priv.h"

/* @x's parent link (or the root) now points at @y. */
static void replace_child(struct prof_rb_root *t, struct prof_rb *x, struct prof_rb *y)
{
	struct prof_rb *p = x->parent;

	y->parent = p;
	if (!p)
		t->top = y;
	else if (p->left == x)
		p->left = y;
	else
		p->right = y;
}

static void rotate_left(struct prof_rb_root *t, struct prof_rb *x)
{
	struct prof_rb *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	replace_child(t, x, y);
	y->left = x;
	x->parent = y;
}

static void rotate_right(struct prof_rb_root *t, struct prof_rb *x)
{
	struct prof_rb *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	replace_child(t, x, y);
	y->right = x;
	x->parent = y;
}

void prof_rb_insert(struct prof_rb_root *t, struct prof_rb *n, struct prof_rb *parent,
		    struct prof_rb **link)
{
	struct prof_rb *p;

	n->left = n->right = NULL;
	n->parent = parent;
	n->red = true;
	*link = n;
	while ((p = n->parent) && p->red) {
		struct prof_rb *g = p->parent; /* a red node is never the root */

		if (p == g->left) {
			struct prof_rb *u = g->right;

			if (u && u->red) { /* recolor, go up two levels */
				p->red = u->red = false;
				g->red = true;
				n = g;
				continue;
			}
			if (n == p->right) {
				rotate_left(t, p);
				n = p;
				p = n->parent;
			}
			p->red = false;
			g->red = true;
			rotate_right(t, g);
		} else {
			struct prof_rb *u = g->left;

			if (u && u->red) {
				p->red = u->red = false;
				g->red = true;
				n = g;
				continue;
			}
			if (n == p->left) {
				rotate_right(t, p);
				n = p;
				p = n->parent;
			}
			p->red = false;
			g->red = true;
			rotate_left(t, g);
		}
	}
	t->top->red = false;
}

struct prof_rb *prof_rb_first(const struct prof_rb_root *t)
{
	struct prof_rb *n = t->top;

	while (n && n->left)
		n = n->left;
	return n;
}

struct prof_rb *prof_rb_next(const struct prof_rb *n)
{
	const struct prof_rb *p;

	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct prof_rb *)n;
	}
	while ((p = n->parent) && n == p->right)
		n = p;
	return (struct prof_rb *)p;
}
