// Shared by the TVBD tests (test_tvbd, test_tvbd_quick): whether a policy's choice is a legal action.
#pragma once

#include "tactical/tvbd.h"

namespace wp::tactical {

// Whether `a` is one of the engine's legal actions in `s` (compared by their text, docs/tvbd.md notation).
inline bool isLegal(const TvbdEngine& e, const BattleState& s, const TAction& a) {
    const QString text = actionText(s, a);
    for (const TAction& l : e.legalActions(s))
        if (actionText(s, l) == text)
            return true;
    return false;
}

} // namespace wp::tactical
