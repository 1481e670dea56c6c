/* Fuzz target: the power-log reader and both node rules, and the switch rule, on the same
 * bytes (a node or switch file of a power folder). */
#include <stdint.h>
#include <string.h>

#include "power.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gs_err e;
	double j;
	char m[3];
	int est;

	power_node_energy((const char *)data, size, "fuzz", POWER_RULE_FILE_ORDER, 1234.5, &j, m, &e);
	power_node_energy((const char *)data, size, "fuzz", POWER_RULE_WINDOW, 1234.5, &j, m, &e);
	power_switch_energy((const char *)data, size, "fuzz", 1234.5, &j, &est, &e);
	return 0;
}
