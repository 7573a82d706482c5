// What the map shows of a position: control, neutral markers and stacks.
// Built from a scenario's set-up now, from the engine's state later; the painter only reads it.
#pragma once

#include "data/gamedata.h"

#include <QHash>
#include <QList>
#include <QString>
#include <optional>

namespace wp {

enum class Control { None, Neutral, Catholic, Protestant };

struct MapCounter {
    QString label;    // leader name or "3 Mil" etc.
    QString sublabel; // ratings or unit count
    QString color, textColor;
    bool leader = false;
    bool reduced = false;
};

struct MapStack {
    int city = -1;
    int box = -1;
    QList<MapCounter> counters;
};

struct MapState {
    QString title;
    QHash<int, Control> areaControl; // by area index; missing = no scenario (shown in the Area's own colour)
    QHash<int, Control> cityControl; // Independent cities and individually held cities
    bool franceInWar = false;
    QList<MapStack> stacks;
    int electorateArea = -1; // where the Palatinate/Bavaria Elector marker is

    static MapState fromScenario(const GameData& d, const Scenario& s);
};

} // namespace wp
