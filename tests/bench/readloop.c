/* readloop.c: the import's floor: walks a tree and reads every regular file in it once, whole,
 * into one buffer (open, read to the end, close), as the importer must at the least.
 * usage: readloop DIR; prints the bytes read. */
#if !defined(_XOPEN_SOURCE) || _XOPEN_SOURCE < 500
#undef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* nftw */
#endif
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[1 << 20];
static unsigned long long total;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type != FTW_F)
		return 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		total += (unsigned long long)n;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: readloop DIR\n");
		return 2;
	}
	if (nftw(argv[1], visit, 64, FTW_PHYS) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("%llu\n", total);
	return 0;
}
