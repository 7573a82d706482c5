// Helpers shared by the offscreen window tests (test_gui.cpp, test_gui_earlywar.cpp).
#pragma once

#include "data/gamedata.h"
#include "rules/internal.h"

#include <QCoreApplication>
#include <QEvent>

#include <set>
#include <tuple>

namespace wp::guitest {

// Lets queued events, repaints and deferred deletions run.
inline void settle() {
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
}

// The stacks the map must draw: one per space, side and inside/outside the fortress.
inline int expectedStacks(const GameData& d, const rules::GameState& s) {
    using namespace wp::rules;
    std::set<std::tuple<int, int, int>> keys;
    for (size_t u = 0; u < s.units.size(); ++u) {
        const UnitState& us = s.units[u];
        if ((isCity(us.loc) || isBox(us.loc)) && us.steps > 0)
            keys.insert({us.loc, unitSide(d, s, static_cast<int>(u)), (us.flags & kInside) ? 1 : 0});
    }
    for (size_t l = 0; l < s.leaders.size(); ++l) {
        const LeaderState& ls = s.leaders[l];
        if (ls.status == LeaderStatus::InPlay && (isCity(ls.loc) || isBox(ls.loc)))
            keys.insert({ls.loc, leaderSide(d, s, static_cast<int>(l)), (ls.flags & kInside) ? 1 : 0});
    }
    return static_cast<int>(keys.size());
}

} // namespace wp::guitest
