// Graphviz's cgraph and gvc (Debian: libgraphviz-dev), with accessors for what Swift cannot
// reach: C globals such as Agdirected and the layout results behind macros such as ND_coord.
#ifndef FAMILYTREE_CGRAPHVIZ_SHIM_H
#define FAMILYTREE_CGRAPHVIZ_SHIM_H

#include <stdio.h>
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>

static inline Agdesc_t ft_directed(void) { return Agdirected; }

/// A node's centre in points (y up) and its size in inches, after gvLayout.
static inline double ft_node_x(Agnode_t *node) { return ND_coord(node).x; }
static inline double ft_node_y(Agnode_t *node) { return ND_coord(node).y; }
static inline double ft_node_width(Agnode_t *node) { return ND_width(node); }
static inline double ft_node_height(Agnode_t *node) { return ND_height(node); }

/// The drawing's bounding box in points, after gvLayout.
static inline double ft_graph_left(Agraph_t *graph) { return GD_bb(graph).LL.x; }
static inline double ft_graph_bottom(Agraph_t *graph) { return GD_bb(graph).LL.y; }
static inline double ft_graph_right(Agraph_t *graph) { return GD_bb(graph).UR.x; }
static inline double ft_graph_top(Agraph_t *graph) { return GD_bb(graph).UR.y; }

/// An edge's ends (agtail and aghead are macros).
static inline Agnode_t *ft_edge_tail(Agedge_t *edge) { return agtail(edge); }
static inline Agnode_t *ft_edge_head(Agedge_t *edge) { return aghead(edge); }

#endif
