#pragma once

#include "data/gamedata.h"

namespace wp::rules {

// Data items the rules name and the engine asks for on its hot paths (every automatic step, every legal
// action list), found by id once per data set and thread instead of by a hash lookup each time. -1 when the
// data has no such item.
enum class Named {
    Wallenstein,           // leader
    ChristianIV,           // leader
    DanishNationality,     // nationality
    ProtestantNationality, // nationality
    UpBox,                 // box "up" (16.2)
    Count
};

int named(const GameData& d, Named which);

} // namespace wp::rules
