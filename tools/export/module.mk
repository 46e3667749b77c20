# SPDX-License-Identifier: MIT
# tools/export: the viewer of `ltt export --format=html` is written as ordinary files under
# tools/export/html/ (page, style, scripts) and embedded into the ltt command at build time as C
# strings (mk/embed.sh -> $(BUILD)/gen/html_assets.h, included by html_write.c). The scripts are
# concatenated in the order of HTML_JS.
HTML_JS     := tools/export/html/data.js tools/export/html/draw.js tools/export/html/panels.js \
               tools/export/html/ui.js
HTML_ASSETS := tools/export/html/page.html tools/export/html/style.css $(HTML_JS)

$(BUILD)/gen/html_assets.h: $(HTML_ASSETS) mk/embed.sh
	@mkdir -p $(@D)
	@{ sh mk/embed.sh html_page tools/export/html/page.html && \
	   sh mk/embed.sh html_css tools/export/html/style.css && \
	   sh mk/embed.sh html_js $(HTML_JS); } > $@.tmp && mv $@.tmp $@
$(O)/tools/export/html_write.o: $(BUILD)/gen/html_assets.h
