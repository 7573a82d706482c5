// What the map shows of a position: control, neutral markers, stacks, markers and the highlights of the
// decision in progress. Built from a scenario's set-up (the CLI's `map render`) or from the engine's live
// state (the GUI); the painter only reads it.
#pragma once

#include "data/gamedata.h"

#include <QHash>
#include <QList>
#include <QString>
#include <optional>

namespace wp {

namespace rules {
struct GameState;
}

enum class Control { None, Neutral, Catholic, Protestant };

struct MapCounter {
    QString label;    // leader name or "3 Mil" etc.
    QString sublabel; // ratings or nationality
    QString color, textColor;
    bool leader = false;
    bool reduced = false;
    QList<int>
        pieces;    // engine pieces: unit indices, or rules::kLeaderBase + leader index; empty from a set-up
    int count = 1; // units this counter stands for (identical units are grouped)
    int cf = 0;    // combat factor of all the units it stands for
};

struct MapStack {
    int city = -1;
    int box = -1;
    int side = -1;       // 0 Catholic, 1 Protestant, -1 unknown
    bool inside = false; // inside the fortress (besieged, or withdrawn by a reaction, 11.23)
    bool active = false; // the stack of the activation in progress
    QList<MapCounter> counters;

    int unitCount() const;
    int combatFactor() const;
    QStringList leaderNames() const;
    int loc() const; // city index, or 10000 + box
};

struct CityMarkers {
    int pillage = 0; // 1 or 2 (15.2)
    int siege = 0;   // 1 Siege marker, 2..4 Continued Siege +1..+3 (13.26)
    int sieger = -1; // side besieging
    bool revolt = false;
    bool masked = false;      // enemy units outside a fortress held by units inside, no siege (13.16)
    bool swedishBase = false; // 17.Sw.1
    bool isEmpty() const { return !pillage && !siege && !revolt && !masked && !swedishBase; }
};

// What a highlighted space means for the decision in progress.
enum class Highlight { None, Move, Retreat, Choose, Attack, Selected };

struct MapState {
    QString title;
    QHash<int, Control> areaControl; // by area index; missing = no scenario (shown in the Area's own colour)
    QHash<int, Control> cityControl; // Independent cities and individually held cities
    bool franceInWar = false;
    bool denmarkInWar = false, swedenInWar = false;
    QList<MapStack> stacks;
    int electorateArea = -1; // where the Palatinate/Bavaria Elector marker is
    QHash<int, CityMarkers> markers;

    // The decision in progress (GUI only): legal targets, the moving stack's path.
    QHash<int, Highlight> highlights; // by loc (city index, or 10000 + box)
    QList<int> path;                  // locs the moving stack has visited, in order
    QString pathLabel;                // "3 of 8 MP"

    static MapState fromScenario(const GameData& d, const Scenario& s);
    static MapState fromGame(const GameData& d, const rules::GameState& s);
};

} // namespace wp
