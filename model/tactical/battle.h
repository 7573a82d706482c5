// The battle state shared by the miniatures engines: a value holding the table, terrain, commands and
// units (stands with pose, resolve and markers), the RNG and the log. A battle is (scenario, seed) plus
// an ordered list of actions; the state is the replay of that list (design principles 2-3).
#pragma once

#include "geometry.h"
#include "rules/rng.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace wp::tactical {

enum class UnitType { Commander, Horse, LightHorse, Dragoons, PikeShot, Shot, Rabble, Cannon };
enum class Quality { Superior, Ordinary, Inferior, Raw };
enum class UnitStatus {
    OnTable,
    Routed,
    Eliminated,
    Casualty,
    PursuedOff,
    Undeployed
}; // Undeployed: TVBD 1.6
enum class TerrainClass { Open, Difficult, Impassable };

QString typeName(UnitType t);  // "PikeShot"
QString typeLabel(UnitType t); // "Pike+Shot"
// A type's name as the rulebook writes it ("PikeShot" -> "Pike+Shot"); another name as it is.
QString typeLabel(const QString& name);
std::optional<UnitType> typeFromName(const QString& s);
QString qualityName(Quality q);
std::optional<Quality> qualityFromName(const QString& s);

inline bool isCavalry(UnitType t) {
    return t == UnitType::Horse || t == UnitType::LightHorse;
}
inline bool isInfantry(UnitType t) {
    return t == UnitType::PikeShot || t == UnitType::Shot || t == UnitType::Dragoons || t == UnitType::Rabble;
}
inline bool isMounted(UnitType t) {
    return isCavalry(t) || t == UnitType::Dragoons;
}
inline bool isFormed(UnitType t) {
    return t != UnitType::Commander && t != UnitType::Cannon;
}
inline bool isCombat(UnitType t) {
    return t != UnitType::Commander;
}

struct TerrainFeature {
    QString id;
    QString type; // key into the ruleset's terrain types
    TerrainClass cls = TerrainClass::Open;
    bool blocksLOS = false;
    bool elevated = false;
    QList<Polygon> pieces; // convex pieces
    Vec2 peak;             // hills: highest point
    double radius = 0;     // hills: distance from the peak to the edge (for height)
};

struct Unit {
    QString id;
    QString name;
    int side = 0; // 0 or 1
    UnitType type = UnitType::PikeShot;
    Quality quality = Quality::Ordinary;
    bool large = false; // Large Pike+Shot (16.2)
    int command = -1;
    Pose pose;
    int startResolve = 1;
    int resolve = 1;
    int combatLoss = 0; // resolve lost to shooting and melee, the only loss heroics and rally restore
    bool limbered = false;
    int attachedTo = -1; // Commanders: the unit they are attached to
    UnitStatus status = UnitStatus::OnTable;
    // markers (7.4)
    bool shotMarker = false;
    bool movedMarker = false;
    bool actedThisStep = false; // moved, tried a command check, or shot in the current step
    int chargeTarget = -1;      // declared charge
    bool charged = false;       // made a charge this turn
    Zone chargeContact = Zone::None;
    bool evaded = false;
    QList<int> fought; // enemies shot at or meleed this turn (heroics)
    QList<int> wonVs;  // enemies it won a melee against this turn
    bool onTable() const { return status == UnitStatus::OnTable; }
};

struct Command {
    QString id;
    QString name;
    int side = 0;
    int commander = -1; // unit index
    int initialUnits = 0;
    bool commanderLost = false;
    bool casualtyMarker = false; // the Commander fell this turn (6.2 pending)
    bool broken = false;         // 16.10
};

// A terrain feature as a scenario file writes it (docs/tvbd.md "Scenario format"): an area feature
// (ellipse: centre, a = rx, b = ry; rect: centre, a = w, b = d; rotation in degrees) or a straight linear
// one (line: points, width). `size` is small, medium or large for area features placed by TVBD 10.4.
struct TerrainSpec {
    QString id, type, shape, size;
    Vec2 centre;
    double a = 0, b = 0, rotation = 0, width = 0;
    QList<Vec2> points;
    bool blocksLOSSet = false, blocksLOS = false; // an explicit blocksLOS in the file
    bool peakSet = false;
    Vec2 peak;
    bool operator==(const TerrainSpec&) const = default;
};

// TVBD set-up (phase 1, 10.1-10.6) when the scenario leaves it to the players (tvbd_setup.cpp).
// TerrainCards: TVBD 16.6 steps 2-3 (centre swaps, the defender's swap or rotation, the second stream).
// GameSize: 10.1 (side 0 proposes, side 1 agrees or makes the final counter-proposal); Recruit: 10.2 (each
// side in turn); Aggressive: 16.4 (the attacker's bonus units); Organise: 10.5 scouting benefit 1.
enum class SetupStage {
    None,
    PlaceTerrain,
    Roads,
    TerrainChange,
    Deploy,
    DeployCannon,
    TerrainCards,
    GameSize,
    Recruit,
    Aggressive,
    Organise
};
// A terrain card dealt to a 15 x 15 TUM sector (TVBD 16.6, 17.1): type empty for an open card; size small,
// medium or large (a stream card counts as medium); orientation in quarter turns (0-3). A bend card (16.7)
// has type "bend": its stream turns a right angle at the sector's centre, its arms running from there in
// the directions orientation x 90 and orientation x 90 + 90 degrees.
struct TerrainCard {
    QString type, size;
    int orientation = 0;
    bool operator==(const TerrainCard&) const = default;
};
struct SetupState {
    SetupStage stage = SetupStage::None;
    bool terrainProcedure = false; // 10.4: the defender places terrain, the attacker changes it
    bool deployment = false;       // 10.6: the sides deploy (the scenario's positions are not used)
    QList<TerrainSpec> specs;      // the terrain placed by the procedure (ids match `terrain`)
    int scoutDelays[2] = {0, 0};   // 10.5 benefits 3-4 still to use
    int deploying = -1;            // 10.6: the command being deployed
    int nextId = 1;                // ids of placed terrain ("p1", "p2", ...)
    int fixedTerrain = 0;          // terrain[0, fixedTerrain) is the scenario's own
    // 16.6 terrain cards (advanced): the cards by sector (numbered from the top left, the top row at side
    // 1's base edge), the layout, and the decisions still to come (TerrainCardStep values).
    bool terrainCards = false;
    QList<TerrainCard> cards;
    int cardCols = 0, cardRows = 0;
    QList<int> cardSteps;
    bool scouted = false;      // 10.5 already rolled (with terrain cards, before the terrain is laid)
    bool twoStreams = false;   // 16.7 (advanced): two stream cards may stay, with bend cards
    bool cardOverhang = false; // 16.8 option 2: a shallow small table takes the 2 x 2 layout
    // 10.1 game size and 10.2 recruiting (16.3.2 coins): the agreed army size per side (0: none given); the
    // attacker's 16.4 bonus is added to its own budget.
    bool gameSizeByPlayers = false, recruit = false;
    bool sizeAgreed = false;
    bool recruited[2] = {false, false};
    // 10.2 "write your order of battle down, if you want to keep it secret": the log lines of each side's
    // recruiting, kept out of the log until both sides have recruited (then both are written, side 0's
    // first).
    QStringList secretLog[2];
    int armyUnits = 0, armyCoins = 0;
    int bonusUnits[2] = {0, 0}, bonusCoins[2] = {0, 0};
    bool aggressiveOffered = false; // 16.4 in a pick-up game: the attacker may take bonus units
    bool aggressiveDone = false, aggressiveTaken = false;
    int bonusLeft = 0;         // 16.4: bonus units (or coins) still to recruit
    bool organiseDone = false; // 10.5 benefit 1 offered (taken or not)
    bool organising = false;   // 10.5 benefit 1 taken: the side reorganises its commands
    QList<int> reassigned;     // units moved to another command by benefit 1 (each once)
};

struct RoutRecord {
    int unit = -1;
    Vec2 lastPos;
    bool erosion = true; // shooting/melee routs cause erosion and heroics
};

// Steps of the game sequence (TVBD 9). Automatic steps are carried out by the engine as soon as reached.
enum class Step { Bombard, Initiative, Move, Shoot, Declare, Evade, Over, Setup }; // Setup: TVBD 1.1-1.6

struct BattleState {
    QString ruleset = QStringLiteral("tvbd");
    QString title;
    QString sizeName = QStringLiteral("small");
    double tableW = 30, tableD = 30, centreW = 16;
    QString sideName[2] = {QStringLiteral("A"), QStringLiteral("B")};
    int attacker = 0;
    int originalUnits[2] = {0, 0};
    int turnLimit = 10;
    bool attackerAlwaysInitiative = false;
    bool variableArmyMorale = false;
    bool commandMorale = false;         // 16.10 command breakpoints replace 15.6
    bool cavalryPursuit = false;        // 16.10.3 (with commandMorale): pursuit checks after a command breaks
    bool impetuous[2] = {false, false}; // 16.10.3: the scenario makes this side's Horse impetuous
    // 7.3.2: a side's nationality (optional, "" when the scenario gives none) and whether it therefore may
    // not have Light Horse (only Spanish armies outside Iberia and German Catholic armies may).
    QString nationality[2];
    bool noLightHorse[2] = {false, false};
    QList<TerrainFeature> terrain;
    QList<Command> commands;
    QList<Unit> units;

    int turn = 0;
    Step step = Step::Bombard;
    int stepSide = 0;   // who acts in Move/Shoot/Declare/Evade/Bombard
    int phaseIndex = 0; // position in the turn's sequence of steps
    int active = 0;
    wp::rules::Rng rng;
    quint64 rolls = 0;   // dice rolled so far (undo is cleared when this changes)
    QList<int> scripted; // tests: dice to use before the RNG (design principles 2)
    QStringList log;
    QList<RoutRecord> routsThisTurn;
    int winner = -1; // -1 none, 0/1, 2 draw
    QString resultReason;
    int lost[2] = {0, 0};
    SetupState setup;

    int reactive() const { return 1 - active; }
    bool over() const { return step == Step::Over; }
    int indexOf(const QString& id) const;
    int roll(); // one d6 from the state's RNG
    QList<int> rollDice(int n);
    void note(const QString& line) { log << line; }
};

// Reads a JSON file whose top level is an object (the rules and scenario files of both rulesets). Errors
// name the file and the problem ("x.json: offset 12: unterminated string").
bool readJsonObject(const QString& path, QJsonObject* root, QString* error);

} // namespace wp::tactical
