// The Catholic card events. Each card is one small unit registered by card id.
#include "rules/events.h"

namespace wp::rules {

void registerCatholicEvents(EventRegistry&) {}

} // namespace wp::rules
