/* ui_app.c: the explorer as a whole: what ends it. Above the model (ui_state.c) and the parts
 * that call it (undo, the planner), so that the model calls none of them. */
#include "ui_app.h"

void ui_app_free(struct app *app)
{
	ui_undo_free(app);
	ui_plan_free(app);
	ui_state_free(app);
}
