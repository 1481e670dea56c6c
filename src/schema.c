/* schema.c: the results CSV's columns (see schema.h). */
#include "schema.h"

#include "dataset.h"

#define SCHEMA_ROW(id, name, field, kind, flags) \
	[SC_##id] = { name, offsetof(struct row, field), kind, flags },
#define SCHEMA_EXTRA(id, name, field, kind, flags) \
	[SC_##id] = { name, offsetof(struct row_extra, field), kind, (flags) | SF_EXTRA },
const struct schema_column schema_cols[SC_COUNT] = { SCHEMA_COLUMNS(SCHEMA_ROW, SCHEMA_EXTRA) };
#undef SCHEMA_ROW
#undef SCHEMA_EXTRA

void schema_write_header(FILE *f)
{
	bool first = true;

	for (int c = 0; c < SC_COUNT; c++) {
		if (!(schema_cols[c].flags & SF_IMPORT))
			continue;
		if (!first)
			fputc(',', f);
		fputs(schema_cols[c].name, f);
		first = false;
	}
	fputc('\n', f);
}
