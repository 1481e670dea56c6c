/* import_fs.c: the importer's file-system tools: sorted folder listings, path joins, and the
 * growth of its arrays. Each sets *oom when memory runs out, so a walk checks once. */
#include "import_fs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void *import_fs_grow(void *p, size_t *cap, size_t need, size_t size, int *oom)
{
	void *q;
	size_t c;

	if (need <= *cap)
		return p;
	c = *cap ? *cap * 2 : 64;
	while (c < need)
		c *= 2;
	q = realloc(p, c * size);
	if (!q) {
		*oom = 1;
		return NULL;
	}
	*cap = c;
	return q;
}

char *import_fs_strdup(const char *s, int *oom)
{
	char *p = strdup(s);
	if (!p)
		*oom = 1;
	return p;
}

char *import_fs_join(const char *a, const char *b, int *oom)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = malloc(n);

	if (!p) {
		*oom = 1;
		return NULL;
	}
	snprintf(p, n, "%s/%s", a, b);
	return p;
}

int import_fs_is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_dent(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name, ((const struct dent *)b)->name);
}

static int dent_kind(DIR *d, const struct dirent *de)
{
	struct stat st;

#ifdef DT_DIR
	if (de->d_type == DT_DIR)
		return KIND_DIR;
	if (de->d_type == DT_REG)
		return KIND_FILE;
	if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
		return KIND_OTHER;
#endif
	if (fstatat(dirfd(d), de->d_name, &st, 0) != 0)
		return KIND_OTHER;
	return S_ISDIR(st.st_mode) ? KIND_DIR : S_ISREG(st.st_mode) ? KIND_FILE : KIND_OTHER;
}

struct dent *import_fs_list(const char *dir, struct gs_warn *w, size_t *count, int *oom)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct dent *v = NULL;
	size_t n = 0, cap = 0;

	*count = 0;
	if (!d) {
		/* no memory for the listing is not a folder that cannot be read: the import fails */
		if (errno == ENOMEM)
			*oom = 1;
		else
			warn_add(w, dir, 0, 0, "cannot read folder: %s", strerror(errno));
		return NULL;
	}
	while ((de = readdir(d))) {
		struct dent *nv;
		if (de->d_name[0] == '.')
			continue;
		nv = import_fs_grow(v, &cap, n + 2, sizeof *v, oom);
		if (!nv)
			break;
		v = nv;
		if (!(v[n].name = import_fs_strdup(de->d_name, oom)))
			break;
		v[n].kind = dent_kind(d, de);
#ifdef DT_REG
		v[n].plain = de->d_type == DT_REG;
#else
		v[n].plain = false;
#endif
		v[n].ino = de->d_ino;
		n++;
	}
	closedir(d);
	if (*oom) {
		for (size_t i = 0; i < n; i++)
			free(v[i].name);
		free(v);
		return NULL;
	}
	if (!v && !(v = calloc(1, sizeof *v))) {
		*oom = 1;
		return NULL;
	}
	qsort(v, n, sizeof *v, cmp_dent);
	v[n].name = NULL;
	*count = n;
	return v;
}

void import_fs_free_list(struct dent *v)
{
	if (!v)
		return;
	for (size_t i = 0; v[i].name; i++)
		free(v[i].name);
	free(v);
}
