/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The HTML page's sources (html/page.html, flame.css, flame.js, timeline.js) as bytes,
 * made at build time by the Makefile (xxd -i) into $(BUILD)/gen, so the
 * page stays editable as ordinary files and ships inside libsonde.
 */
#ifndef SONDE_EXPORT_HTML_ASSETS_H
#define SONDE_EXPORT_HTML_ASSETS_H

#include <stddef.h>

extern const unsigned char export_asset_page[];
extern const size_t export_asset_page_len;
extern const unsigned char export_asset_css[];
extern const size_t export_asset_css_len;
extern const unsigned char export_asset_js[];
extern const size_t export_asset_js_len;
extern const unsigned char export_asset_tljs[];
extern const size_t export_asset_tljs_len;

#endif /* SONDE_EXPORT_HTML_ASSETS_H */
