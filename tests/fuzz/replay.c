/* Runs a fuzz target's entry point over files given on the command line, so that every corpus
 * and regression input is replayed by `make check` with the ordinary compiler. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int n = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, got;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		do {
			if (len == cap) {
				cap = cap ? cap * 2 : 65536;
				uint8_t *p = realloc(buf, cap);
				if (!p)
					return 1;
				buf = p;
			}
			got = fread(buf + len, 1, cap - len, f);
			len += got;
		} while (got > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		n++;
	}
	printf("replayed %d inputs\n", n);
	return 0;
}
