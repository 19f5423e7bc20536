// librsvg (SVG to cairo) and cairo's PDF surface (Debian: librsvg2-dev, libcairo2-dev): the
// PDF of a chart is our own SVG drawn by librsvg, so its text stays text.
#ifndef FAMILYTREE_CRSVG_SHIM_H
#define FAMILYTREE_CRSVG_SHIM_H

#include <librsvg/rsvg.h>
#include <cairo.h>
#include <cairo-pdf.h>

#endif
