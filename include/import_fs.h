/* import_fs.h: the importer's file-system tools (import.c's walk). */
#ifndef GS_IMPORT_FS_H
#define GS_IMPORT_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "err.h"

/* One folder entry; kind from the entry's d_type, stat'ed (symlinks followed) only when the
 * file system does not tell or the entry is a symlink. */
enum { KIND_OTHER, KIND_DIR, KIND_FILE };
struct dent {
	char *name;
	int kind;
	bool plain;  /* the folder says a regular file (no link, no stat needed): ino names it */
	ino_t ino;
};

/* p grown (doubling, from 64) to hold at least need items of size bytes, *cap updated; p
 * itself when it already does; NULL with *oom set when out of memory (p still owned). */
void *import_fs_grow(void *p, size_t *cap, size_t need, size_t size, int *oom);

/* strdup(s); NULL with *oom set when out of memory. */
char *import_fs_strdup(const char *s, int *oom);

/* "a/b", malloc'd; NULL with *oom set when out of memory. */
char *import_fs_join(const char *a, const char *b, int *oom);

/* 1 when p is a folder (symlinks followed), else 0. */
int import_fs_is_dir(const char *p);

/* Sorted entries of dir (no "." or hidden ones), terminated by a NULL name, *count of them;
 * owned (import_fs_free_list). NULL with a warning in w when dir cannot be read, or with
 * *oom set when out of memory. */
struct dent *import_fs_list(const char *dir, struct gs_warn *w, size_t *count, int *oom);

/* Frees a listing of import_fs_list (NULL: nothing). */
void import_fs_free_list(struct dent *v);

#endif
