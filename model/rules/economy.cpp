// Issue 4 (economy and politics): recruitment (8.4), pay and loot (15.1-15.2), pillage recovery (15.25),
// the Wallenstein Phase (7.2), Peasant Revolt spread (9.44), peace (5.3). Until they are built these
// hooks do nothing and the engine offers none of their decisions.
#include "rules/internal.h"

namespace wp::rules {

std::vector<Action> wallensteinLegal(const Ctx&) {
    return {};
}
void wallensteinApply(Ctx&, const Action&) {}
bool recoveryPhase(Ctx&) {
    return false;
}
bool canRecruit(const Ctx&, int, int) {
    return false;
}
void startRecruitment(Ctx&, int, int) {}
bool payPhase(Ctx&) {
    return false;
}
bool revoltPhase(Ctx&) {
    return false;
}
bool canOfferPeace(const Ctx&, int) {
    return false;
}
void offerPeace(Ctx&, int) {}
void scenarioStartExtras(Ctx&, const Scenario&) {}
std::vector<Action> economyChoiceLegal(const Ctx&, const ChoiceFrame&) {
    return {};
}
void economyChoiceApply(Ctx& c, const Action&) {
    c.s.frames.pop_back();
}

} // namespace wp::rules
