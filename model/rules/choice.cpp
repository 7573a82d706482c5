// Generic choices: foraging (11.16), overstacking (10.22), the card kept at the end of the Action Phase,
// and the choices card events ask for.
#include "rules/economy.h"
#include "rules/events.h"
#include "rules/internal.h"

#include <algorithm>

namespace wp::rules {

namespace {

ChoiceFrame& top(GameState& s) {
    return std::get<ChoiceFrame>(s.frames.back());
}

// Foraging frames list cities, then -1, then the units that moved.
void splitForage(const ChoiceFrame& f, std::vector<int16_t>& cities, std::vector<int16_t>& units) {
    bool u = false;
    for (int16_t o : f.options) {
        if (o == -1) {
            u = true;
            continue;
        }
        (u ? units : cities).push_back(o);
    }
}

} // namespace

std::vector<Action> choiceLegal(const Ctx& c, const ChoiceFrame& f) {
    std::vector<Action> out;
    auto choose = [&](int16_t id) {
        Action a;
        a.kind = ActionKind::Choose;
        a.target = id;
        out.push_back(a);
    };
    switch (f.purpose) {
    case kChooseForage: {
        std::vector<int16_t> cities, units;
        splitForage(f, cities, units);
        if (f.data < 0) { // pillage levels in cities
            for (int16_t city : cities)
                if (c.s.cities[city].pillage < 2)
                    choose(city);
        } else { // 11.161 unmet requirement: step losses among the units that moved
            for (int16_t u : units)
                if (c.s.units[u].loc >= 0 && c.s.units[u].steps > 0)
                    choose(u);
        }
        break;
    }
    case kChooseOverstack:
    case kChooseDiscard:
        for (int16_t o : f.options)
            choose(o);
        break;
    case kChooseCampaign:
        return campaignLegal(c, f); // 19.8
    default:
        if (f.purpose >= kChooseEconomyBase && f.purpose < kChooseEventBase)
            return economyChoiceLegal(c, f);
        if (f.purpose >= kChooseEventBase) {
            const EventDef* ev = EventRegistry::instance().find(c.d.cards[f.data].id);
            if (ev && ev->choiceLegal)
                return ev->choiceLegal(c, f);
        }
        for (int16_t o : f.options)
            choose(o);
    }
    return out;
}

void choiceApply(Ctx& c, const Action& a) {
    ChoiceFrame& f = top(c.s);
    switch (f.purpose) {
    case kChooseForage: {
        if (f.data < 0) {
            addPillage(c, a.target, 1, QStringLiteral("11.16 foraging,")); // with the 15.24 Area VP effect
        } else {
            UnitState& u = c.s.units[a.target];
            WP_SAY(
                c,
                QStringLiteral("11.161 foraging not met: %1 loses a step").arg(unitLabel(c.d, c.s, a.target)),
                f.actor);
            if (--u.steps == 0)
                eliminateUnit(c, a.target, false, QStringLiteral("11.161"));
            else if (isCity(u.loc))
                checkSiegeMaintained(c, u.loc); // 13.14: fewer besieging factors
        }
        if (--f.count <= 0) {
            c.s.frames.pop_back();
            return;
        }
        break;
    }
    case kChooseCampaign:
        campaignApply(c, a); // 19.8
        return;
    case kChooseOverstack: {
        f.options.erase(std::remove(f.options.begin(), f.options.end(), a.target), f.options.end());
        const int16_t target = a.target;
        if (f.kind == kOverstackFrenchSwedish) { // 17.F.5: until the French and the Swedes are apart
            const ChoiceFrame was = f;
            const int city = was.city;
            std::vector<int16_t> left = was.options;
            c.s.frames.pop_back();
            eliminateUnit(c, target, false, QStringLiteral("17.F.5, 10.22"));
            bool french = false, swedish = false;
            for (int u : unitsAt(c.s, city, kProtestant, c.d)) {
                french |= unitNationality(c.d, c.s, u).id == QLatin1String("french");
                swedish |= unitNationality(c.d, c.s, u).id == QLatin1String("swedish");
            }
            left.erase(
                std::remove_if(left.begin(), left.end(), [&](int16_t u) { return c.s.units[u].loc != city; }),
                left.end());
            if (french && swedish && !left.empty()) {
                ChoiceFrame next = was;
                next.options = left;
                next.count = static_cast<int16_t>(left.size());
                c.s.frames.push_back(next);
            }
            return;
        }
        const bool last = --f.count <= 0;
        if (last)
            c.s.frames.pop_back();
        eliminateUnit(c, target, false, QStringLiteral("10.22"));
        return;
    }
    case kChooseDiscard: {
        // the chosen card is kept; every other card in the hand goes to the Played pile (6.D)
        const int side = f.actor;
        std::vector<int16_t> hand = c.s.hand[side];
        for (int16_t ci : hand)
            if (ci != a.target)
                discardCard(c, side, ci, false);
        WP_SAY(c, QStringLiteral("6.D %1 holds one card").arg(sideName(side)), side);
        c.s.frames.pop_back();
        return;
    }
    default:
        if (f.purpose >= kChooseEconomyBase && f.purpose < kChooseEventBase) {
            economyChoiceApply(c, a);
            return;
        }
        if (f.purpose >= kChooseEventBase) {
            const ChoiceFrame copy = f;
            const EventDef* ev = EventRegistry::instance().find(c.d.cards[f.data].id);
            if (ev && ev->choiceApply) {
                ev->choiceApply(c, copy, a);
                return;
            }
        }
        c.s.frames.pop_back();
        return;
    }
    // 11.161: no city left that can take a pillage level: the rest becomes step losses.
    if (f.purpose == kChooseForage && f.data < 0 && choiceLegal(c, f).empty()) {
        f.data = 1;
        if (choiceLegal(c, f).empty())
            c.s.frames.pop_back();
    }
}

} // namespace wp::rules
