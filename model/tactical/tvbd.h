// The Tilly's Very Bad Day v2.0 engine on the shared battle state: legal actions at every decision,
// apply with rule-numbered log lines, and the rule services (zones, command, shooting, melee, morale) the
// tests and the AI use directly. Rule numbers are the rulebook's (e.g. 12.2.8).
#pragma once

#include "battle.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <functional>
#include <span>

namespace wp::tactical {

struct TypeInfo {
    int resolve = 1;
    double move = 0, charge = 0, moveDifficult = 0, backward = 0, range = 0;
    int shootHit = 6, meleeHit = 6, meleeHitDifficult = 0, cmdCheckHit = 6;
    bool cover = false, canEvade = false, wheelOnly = false, mustDeployCentre = false;
    double w = 2, d = 1;
    QString source;
};

struct TerrainTypeInfo {
    TerrainClass cls = TerrainClass::Open;
    bool blocksLOS = false, elevated = false, cannonMayCross = false;
    double width = 0;
};

// 10.1 game sizes (Table 4), 16.3.2 coins, 16.4 the aggressive attacker's bonus, by table (16.8, 16.9).
struct GameSizeInfo {
    int unitsMin = 10, unitsMax = 18, coinsMin = 40, coinsMax = 72, suggested = 15, bonus = 2;
};

struct TvbdRules {
    QHash<int, TypeInfo> types; // keyed by int(UnitType)
    QHash<int, int> qualityDelta, qualityCost;
    QHash<int, int> largeResolve, largeCap, largeCost; // keyed by int(Quality)
    int largeFlankDice = 2, largeFlankMinResolve = 2;
    QHash<QString, QList<double>> tables;   // name -> {w, d, centre}
    QHash<QString, GameSizeInfo> gameSizes; // name -> army sizes (10.1, 16.3.2, 16.4)
    double deployShort = 4;
    double narrowGap = 2;
    double commandRadius = 8, zocDepth = 3, buffer = 1, supportRange = 4, evadeClear = 3, wheelMax = 45,
           obliqueMax = 45, sideStep = 1;
    int turnLimit = 10, turnLimitAggressive = 8;
    QHash<QString, TerrainTypeInfo> terrain;
    QMap<QString, bool>
        lightHorseNations; // 7.3.2: the nationalities a side may name; true: may have Light Horse
    const TypeInfo& type(UnitType t) const { return types.find(int(t)).value(); }
    int startResolve(UnitType t, Quality q, bool large) const;
    int coins(UnitType t, Quality q, bool large) const;
};

// Loads resources/tactical/tvbd.json. Errors name the file and the JSON path.
bool loadTvbdRules(const QString& path, TvbdRules* out, QString* error);
// The rules from the data directory (wp::findDataDir()); nullptr and *error set when they do not load.
const TvbdRules* defaultTvbdRules(QString* error = nullptr);

// Loads a battle scenario (docs/tvbd.md) into a fresh state. Errors name file, JSON path and problem.
bool loadScenario(const QString& path, const TvbdRules& rules, BattleState* out, QString* error);
bool scenarioFromJson(const QJsonObject& root, const QString& fileName, const TvbdRules& rules,
                      BattleState* out, QString* error);

// A terrain feature from its scenario description, and back (docs/tvbd.md "Scenario format").
TerrainFeature terrainFeature(const TvbdRules& rules, const TerrainSpec& spec);
QJsonObject terrainSpecJson(const TerrainSpec& spec);
// The action notation of a placed feature ("woods medium 22.5,15 6x4 0", "road 0,15 45,15").
QString terrainSpecText(const TerrainSpec& spec);
// Reads that notation (the shape and a line's width are set from the type when the action is applied).
bool parseTerrainSpec(const QStringList& words, TerrainSpec* out, QString* error);

// 7.3.2: why a side may not have Light Horse ("Swedes (swedish): 7.3.2 only Spanish armies outside Iberia
// and German Catholic armies (imperial, bavarian, league, spanish) may have Light Horse"); "" when it may.
QString lightHorseBarred(const BattleState& s, int side);
// 10.2: whether the orders of battle are still secret (the players recruit and not both have finished):
// a view shows neither side the other's recruits, and the log holds them back (SetupState::secretLog).
bool orderOfBattleSecret(const BattleState& s);
// The generic army list (7.3.2, 7.3.3) for one side: an empty list when legal.
QStringList armyListProblems(const BattleState& s, int side);
// 16.3.2 and 16.5.6: an army's cost in coins, its units (16.3) plus 2 coins for each field-fortification
// section its infantry or Cannon garrison (a section over stands of both sides is counted for both);
// `sections` receives the number of sections.
int armyCoins(const TvbdRules& rules, const BattleState& s, int side, int* sections = nullptr);
// The army list as above plus the coin budget (16.3.2), fortifications included (16.5.6).
QStringList armyListProblems(const TvbdRules& rules, const BattleState& s, int side, int coinBudget);
// The army list with the army size the state carries (10.1 units, 16.3.2 coins, the 16.4 bonus of the side):
// the generic list alone when the scenario gives no army size.
QStringList armyListProblemsWithBudget(const TvbdRules& rules, const BattleState& s, int side);

// ---- actions ---------------------------------------------------------------------------------------------
enum class MoveKind {
    Straight,
    Wheel,
    Oblique,
    AboutFace,
    Turn,
    Sideways,
    Backward,
    Unlimber,
    Pivot,
    To,
    Attach,
    Face // 12.1.13: a locked unit turns to face an enemy in contact (target)
};

struct MoveSpec {
    MoveKind kind = MoveKind::Straight;
    double angle = 0; // Wheel/Oblique/Pivot: degrees (positive = left); Turn/Sideways: +1 left, -1 right
    double dist = 0;  // straight part after the change of direction
    Vec2 to;          // Commander free move
    int target = -1;  // Commander attach
    bool operator==(const MoveSpec&) const = default;
};

inline MoveSpec mv(MoveKind k, double angle = 0, double dist = 0, int target = -1) {
    MoveSpec m;
    m.kind = k;
    m.angle = angle;
    m.dist = dist;
    m.target = target;
    return m;
}

// One of the representative moves of a unit (TvbdEngine::moveOptions), before it is checked. A fallback is
// listed only when the option at `fallbackOf` is not legal (a wheel with a shorter straight part).
struct MoveOption {
    MoveSpec move;
    int fallbackOf = -1;
};

// 10.4 the attacker's terrain change (options 1-6 of the rulebook, in its order).
// 16.6 terrain cards: CardSwap (target and secondary[0]: sectors, 0-based), CardRotate (target: sector,
// secondary[0]: the new orientation 0-3), CardOpen (target: a stream card replaced by an open one).
enum class TerrainChange {
    None,
    Remove,
    Move,
    Swap,
    Road,
    ToGentle,
    ToDifficult,
    CardSwap,
    CardRotate,
    CardOpen,
    CardBend // 16.7: a stream card replaced by a bend card (target: sector, secondary[0]: orientation 0-3)
};

// 16.6 the steps of the terrain-card procedure that are decisions (SetupState::cardSteps).
// CardScoutSwap: 10.5 scouting benefit 2, swaps of two medium cards by the side with the advantage.
enum TerrainCardStep {
    CardCentreSwapDefender,
    CardCentreSwapAttacker,
    CardDefenderAdjust,
    CardSecondStream,
    CardScoutSwap
};

struct TAction {
    // Hold: the unit stays this step. Set-up (1.1-1.6): Place a terrain feature or road, Change the
    // terrain (the attacker, 10.4), Deploy a unit (10.6), Pass (10.5: delay deploying a command/Cannon),
    // Size (10.1: propose a game size), Agree (10.1), Recruit (10.2: a unit into a command, or with target
    // -1 a new command with its Commander), Assign (10.5 benefit 1: a unit to another command of its side),
    // Aggressive (16.4: the attacker takes the bonus units and the shorter time limit).
    enum Kind {
        End,
        Move,
        Shoot,
        Charge,
        Evade,
        Stand,
        Hold,
        Place,
        Change,
        Deploy,
        Pass,
        Size,
        Agree,
        Recruit,
        Assign,
        Aggressive
    } kind = End;
    int unit = -1;        // mover, primary shooter, charger, evader, deployed unit
    int target = -1;      // shooting / charge target; terrain change: the feature (index in setup.specs)
    QList<int> secondary; // secondary shooters; terrain swap: the other feature
    MoveSpec move;        // Deploy: move.to = centre, move.angle = facing
    TerrainSpec terrain;  // Place; Change Road: the new road
    TerrainChange change = TerrainChange::None;
    Vec2 shift;                                // Change Move
    bool limbered = false;                     // Deploy of a Cannon
    QString table;                             // Size: the table (small, big, shallowSmall, giant)
    int amount = 0;                            // Size: units (or coins) per side
    bool coins = false;                        // Size: the amount is in coins (16.3.2)
    UnitType recruitType = UnitType::PikeShot; // Recruit
    Quality quality = Quality::Ordinary;       // Recruit
    bool large = false;                        // Recruit: a Large Pike+Shot (16.2)
    bool operator==(const TAction&) const = default;
};

QString actionText(const BattleState& s, const TAction& a);
bool parseAction(const BattleState& s, const QString& text, TAction* out, QString* error);

// ---- the engine ------------------------------------------------------------------------------------------
struct ChargePlan {
    double wheel = 0;              // degrees, positive = left
    double dist = 0;               // straight distance after the wheel, to contact
    Zone startZone = Zone::None;   // charger's position relative to the target at the start
    Zone contactZone = Zone::None; // charger relative to the target at contact
    Pose end;
};

struct MeleeDice {
    int dice = 0;
    int toHit = 6;
};

// One melee group as 14.5 fights it (TvbdEngine::meleeSetup): per member (in the order given), the enemies
// in contact, the target chosen (the lowest to-hit, then the weakest), whether it spreads its hits over
// every contact (the same to-hit against all), whether it is the primary fighter on its target (14.5.4),
// its dice and its attached Commanders (one die each at 4+, 14.5.5).
struct MeleeSetup {
    QList<int> members;
    QList<QList<int>> contacts;
    QList<int> target;
    QList<bool> split, primary;
    QList<MeleeDice> dice;
    QList<QList<int>> commanders;
};

// While an object of this class lives, the engine's remembered answers about `s` (shooting targets, charge
// options, candidate moves: see TvbdEngine::shootTargets) are looked up under one fingerprint of the table
// taken once, instead of one taken per question: `s` must not change meanwhile (the engine opens one around
// its read-only stretches, e.g. listing the legal actions; the policy around its whole decision).
class TableReadScope {
  public:
    explicit TableReadScope(const BattleState& s);
    ~TableReadScope();
    TableReadScope(const TableReadScope&) = delete;
    TableReadScope& operator=(const TableReadScope&) = delete;

  protected:
    TableReadScope(const BattleState& s, bool unitsFixed);
    bool open() const { return m_open; }

  private:
    bool m_open = false; // false: a scope over the same state is open already (this one adds nothing)
};

// A read scope over a state whose units may change meanwhile but whose terrain does not (a scratch copy on
// which the caller moves a unit about, asking the engine about each pose): the terrain is checked once
// (inDifficult, blockedAt), the units' fingerprint on every question as without a scope.
class TerrainReadScope : public TableReadScope {
  public:
    explicit TerrainReadScope(const BattleState& s) : TableReadScope(s, false) {}
    // A scope over a state whose terrain a scope before this one checked (`terrain`: its checked(), not 0)
    // and that has not changed since (the caller's promise: the same scratch copy): not checked again.
    TerrainReadScope(const BattleState& s, quint64 terrain);
    // The terrain's hash once this scope has checked it (a question read the terrain), else 0.
    quint64 checked() const;
};

class TvbdEngine {
  public:
    explicit TvbdEngine(const TvbdRules& rules) : r(rules) {}
    const TvbdRules& rules() const { return r; }

    // Runs the automatic steps from the set-up (1.3 attacker, 1.5 scouting, 1.7 bombardment) until the
    // first decision; the set-up steps the scenario leaves to the players (10.4 terrain, 10.6 deployment)
    // are decisions (tvbd_setup.cpp).
    void start(BattleState& s) const;
    int actor(const BattleState& s) const; // side to act, -1 when over
    QString prompt(const BattleState& s) const;
    QList<TAction> legalActions(const BattleState& s) const;
    // Checks the action (a listed action or any other the rules allow, e.g. a move of any length) and
    // applies it, then runs automatic steps up to the next decision.
    bool apply(BattleState& s, const TAction& a, QString* error = nullptr) const;

    // ---- services (public for tests, AI and views) ----
    double distance(const BattleState& s, int a, int b, double cap = 1e300) const;
    Zone zone(const BattleState& s, int self, int other) const {
        return classify(s.units[self].pose, s.units[other].pose);
    }
    bool inDifficult(const BattleState& s, const Pose& p) const;
    bool inDifficult(const BattleState& s, int u) const { return inDifficult(s, s.units[u].pose); }
    double height(const BattleState& s, Vec2 p) const;
    // A 64-bit key of everything a charge's resolution and its melee's set-up read (resolveCharges,
    // meleeSetup, meleeTaken: the rules, the table, the terrain, the active side and each unit's pose, kind,
    // status, resolve, declared charge, charged and evaded flags and attachment; not the markers, the log or
    // the dice), with `a` and `b` mixed in: tvbd_odds' memo of chargeOdds.
    quint64 chargeKey(const BattleState& s, int a, int b) const;
    bool inCommand(const BattleState& s, int u) const;          // 12.1.1
    bool commandCheck(BattleState& s, int u) const;             // 12.1.2 (rolls)
    QList<int> contacts(const BattleState& s, int u) const;     // enemies in base contact
    bool locked(const BattleState& s, int u) const;             // 12.1.13: contacts(s, u) is not empty
    bool lineOfSight(const BattleState& s, int a, int b) const; // 12.2.3
    QList<int> shootTargets(const BattleState& s, int u, bool* toFront = nullptr) const; // 12.2.2-12.2.7
    int shootingDice(const BattleState& s, int shooter, int target, bool primary) const; // 12.2.8, 12.2.11-13
    bool supported(const BattleState& s, int u) const;                                   // 14.5.6
    MeleeDice meleeDice(const BattleState& s, int u, int target, bool primary) const;    // 14.5.2-14.5.5
    int meleeToHit(const BattleState& s, int u, int target) const;                       // 14.5.3
    // meleeToHit's table for an attacker of type `type` (its `charged` flag given) against `target`, from
    // `difficult()` (the attacker in difficult terrain or attacking across a fortification, 16.5.5) and
    // `zone()` (the attacker's zone seen from the target), each asked only when the type reads it.
    template <typename Difficult, typename ZoneOf>
    static int meleeToHitOf(UnitType type, bool charged, const Unit& target, Difficult difficult,
                            ZoneOf zone) {
        switch (type) {
        case UnitType::PikeShot:
            return difficult() ? 6 : 5;
        case UnitType::LightHorse: {
            if (!charged)
                return 6;
            const Zone z = zone();
            return z == Zone::BehindFlank || z == Zone::Rear || target.resolve == 1 ? 4 : 6;
        }
        case UnitType::Horse:
            if (difficult())
                return 6;
            if (!charged)
                return 5;
            return target.type == UnitType::PikeShot && zone() == Zone::Front ? 5 : 4;
        case UnitType::Commander:
            return 4;
        default:
            return 6;
        }
    }
    // 14.5.2-14.5.5: who fights whom in a melee group and with what dice (no dice rolled); and the hits
    // each member takes when the members score `hits` (their own and their Commanders', in member order),
    // allocated as 14.5.11 does (a spreading unit routs the weakest first).
    MeleeSetup meleeSetup(const BattleState& s, const QList<int>& members) const;
    QList<int> meleeTaken(const BattleState& s, const MeleeSetup& m, const QList<int>& hits) const;
    std::optional<ChargePlan> chargePlan(const BattleState& s, int u, int target) const; // 14.1, 14.4
    QList<std::pair<int, ChargePlan>> chargeOptions(const BattleState& s,
                                                    int u) const; // with front-before-flank
    // 14.1.4: the units of its command a Commander may declare a charge to attach to (a unit that has
    // declared a charge and may end within the Commander's 3 TUM charge, or one locked in melee within it).
    QList<int> commanderChargeTargets(const BattleState& s, int c) const;
    // Pose after a move, or an error naming the rule broken (12.1).
    std::optional<Pose> checkMove(const BattleState& s, int u, const MoveSpec& m, QString* why = nullptr,
                                  bool evade = false) const;
    // The representative set of legal moves; with `poses`, the pose each one ends in (same order).
    QList<MoveSpec> candidateMoves(const BattleState& s, int u, QList<Pose>* poses = nullptr) const;
    // Whether candidateMoves would list anything (stops at the first legal move).
    bool hasCandidateMove(const BattleState& s, int u) const;
    // The moves candidateMoves checks, in its order, unchecked: candidateMoves lists each option checkMove
    // allows (a fallback only when the option it stands in for is not allowed).
    QList<MoveOption> moveOptions(const BattleState& s, int u) const;
    // The pose a move of a unit (not a Commander, not an unlimbered Cannon) would end in, unchecked: when
    // checkMove allows the move, it returns this very pose. nullopt for a move of a kind no unit makes.
    std::optional<Pose> movePose(const BattleState& s, int u, const MoveSpec& m) const;
    // The highest-scored of `options` (scored: {score, index into options}; sorted here, stable) that
    // candidateMoves would list: checked best first, a fallback only when the option it stands in for is not
    // allowed. nullopt when none is. (The policies score moveOptions on their movePose.)
    std::optional<MoveSpec> bestListedOption(const BattleState& s, int u, const QList<MoveOption>& options,
                                             std::span<std::pair<double, int>> scored) const;
    // candidateMoves' rule for one of `options` (moveOptions of unit u): listed when checkMove allows it
    // and, for a fallback, not the option it stands in for. Each option is checked once.
    class ListedCheck {
      public:
        ListedCheck(const TvbdEngine& e, const BattleState& s, int u, const QList<MoveOption>& options)
            : m_e(e), m_s(s), m_u(u), m_options(options), m_legal(options.size(), -1) {}
        bool listed(int k) {
            const int primary = m_options[k].fallbackOf;
            return !(primary >= 0 && legal(primary)) && legal(k);
        }

      private:
        bool legal(int k) {
            if (m_legal[k] < 0)
                m_legal[k] = m_e.checkMove(m_s, m_u, m_options[k].move) ? 1 : 0;
            return m_legal[k] == 1;
        }
        const TvbdEngine& m_e;
        const BattleState& m_s;
        int m_u;
        const QList<MoveOption>& m_options;
        QList<signed char> m_legal; // unknown (-1), 0, 1
    };
    static int armyBreakpoint(int units) { return (units + 2) / 3; }    // 15.6
    static int commandBreakpoint(int units) { return (units + 1) / 2; } // 16.10
    static int commandArmyBreakpoint(int commands);                     // 16.10 table
    int unitWeight(const BattleState& s, int u) const { return s.units[u].large ? 2 : 1; }

    // Lower-level steps, public for constructed-position tests.
    void resolveShot(BattleState& s, int target, int primary, const QList<int>& secondary) const;
    void commanderCasualtyCheck(BattleState& s, int commander, bool routed, int enemySide) const; // 12.2.15
    QList<int> attachedCommanders(const BattleState& s, int u) const;
    void hit(BattleState& s, int u, int n, bool combat, bool routMarker, const QString& why) const;
    void cancelCharges(BattleState& s) const;  // 14.2
    void resolveCharges(BattleState& s) const; // 14.4
    void resolveMelee(BattleState& s) const;   // 14.5-14.6
    void morale(BattleState& s) const;         // 15
    // 16.10.3 cavalry pursuit: the dice of a command's Horse check (or, lightHorse, its Light Horse check),
    // 3 less one per modifier (Commander casualty, impetuous, no enemy within 8 TUM); may be 0.
    int pursuitDice(const BattleState& s, int command, bool lightHorse) const;
    // Rolls a pursuit check of n dice: true (no pursuit) when any die is a 6; 0 dice fail.
    bool pursuitCheck(BattleState& s, int n, const QString& what) const;
    // 16.5 field fortifications: the fortification pieces a unit garrisons (Dragoons, Pike+Shot, Shot,
    // Rabble, Cannon touching a "fortification" terrain piece), and whether a line from `from` to the
    // unit's centre crosses one of them.
    bool garrison(const BattleState& s, int u) const;
    bool behindFortification(const BattleState& s, int u, Vec2 from) const;
    void rallyBack(BattleState& s, int u) const;

    // ---- set-up (tvbd_setup.cpp) ----
    // Area of difficult terrain in the centre zone (10.4: the attacker's changes 1-3 must reduce it),
    // measured on a 0.25 TUM grid.
    double centreDifficultArea(const BattleState& s) const;
    // 10.4 limits: how many more features the defender may place (0 when at the maximum).
    QStringList terrainPlacementProblems(const BattleState& s, const TerrainSpec& add) const;

  private:
    void beginSetup(BattleState& s, bool terrainDone = false) const;
    void beginBombardment(BattleState& s) const;
    void startCannonDeployment(BattleState& s) const;
    QList<TAction> setupActions(const BattleState& s) const;
    bool applySetup(BattleState& s, const TAction& a, QString* why) const;
    QString setupPrompt(const BattleState& s) const;
    QList<int> computeShootTargets(const BattleState& s, int u, bool* toFront) const;
    QList<std::pair<int, ChargePlan>> computeChargeOptions(const BattleState& s, int u) const;
    QList<MoveSpec> listMoves(const BattleState& s, int u, QList<Pose>* poses, bool firstOnly) const;
    bool computeLocked(const BattleState& s, int u) const; // locked, not remembered
    std::optional<Pose> computeCheckMove(const BattleState& s, int u, const MoveSpec& m, QString* why,
                                         bool evade) const; // checkMove, not remembered
    // The path of a move (its start pose first), the allowance it uses and whether it is a straight pass
    // (Table 5); nullopt and *why for a move the unit's kind cannot make.
    std::optional<Pose> movePath(const BattleState& s, int u, const MoveSpec& m,
                                 const QList<int>& startContacts, QList<Pose>* path, double* used,
                                 bool* straightPass, QString* why) const;
    void advance(BattleState& s) const;
    bool evadeOk(const BattleState& s, int u, const MoveSpec& m, QString* why) const;
    void checkImmediateEnd(BattleState& s) const;
    void nextStep(BattleState& s) const;
    void beginTurn(BattleState& s) const;
    bool canAct(const BattleState& s, int u) const;
    bool blockedAt(const BattleState& s, int u, const Pose& p, const QList<int>& ignore, QString* why) const;
    // What the poses inside a region can touch (tvbd.cpp): blockedAt and inDifficult over it give their
    // answers over the whole table for any pose in the region, looking at fewer stands and terrain pieces.
    struct Near;
    // reach: the stands whose centres lie within this distance (each axis) of the area are listed.
    Near nearArea(const BattleState& s, int u, const Box& area, double reach = 4) const;
    // passSide: the stands of this side do not block either (as if all were in `ignore`).
    bool blockedAt(const BattleState& s, int u, const Pose& p, const QList<int>& ignore, QString* why,
                   const Near& near, int passSide = -1) const;
    // The region every pose of u's charges lies in (wheels of up to 45 degrees, then the charge move).
    Near chargeArea(const BattleState& s, int u) const;
    std::optional<ChargePlan> chargePlan(const BattleState& s, int u, int target, const Near& near) const;
    bool inDifficult(const Pose& p, const Near& near) const;
    QList<int> shooters(const BattleState& s, int side) const;
    bool mayShoot(const BattleState& s, int u, int side) const; // u is one of shooters(s, side)
    void removeUnit(BattleState& s, int u, UnitStatus st) const;
    void syncAttached(BattleState& s, int u) const;
    const TvbdRules& r;
};

// ---- set-up procedures (tvbd_setup.cpp) -----------------------------------------------------------------

// The simple policy's answer to a set-up decision (s.step == Step::Setup): always one of legalActions.
TAction chooseSetupAction(const TvbdEngine& engine, const BattleState& s, wp::rules::Rng& rng);

// The ground a set-up decision concerns, for a view to draw before it is chosen: a feature or road placed
// (10.4, 16.6.8: its pieces), what an attacker's change alters (10.4: the features where they end, a removed
// one where it was), the sectors of the cards a card decision touches (16.6, 16.7, 10.5 benefit 2). *group
// names the alternatives of its kind ("place woods medium", "place road", "change move p2", "card swap").
// Empty for other actions.
QList<Polygon> setupActionArea(const TvbdEngine& e, const BattleState& s, const TAction& a,
                               QString* group = nullptr);

// 10.4 terrain placement by the rulebook's basic method (the defender places 1-4 / 2-6 features and
// roads, then the attacker makes one change), every decision taken by the simple policy with `seed`,
// on the table of `scenario` (its size, sides, attacker; when the attacker is not set it is rolled,
// 10.3). The scenario's own terrain stays and the new features are added. Stable API (issue 9 export).
struct TerrainProcedureResult {
    bool ok = false;
    QString error;
    int attacker = -1;
    QList<TerrainSpec> terrain; // what the procedure placed (rivers cut at bridges, bridges added)
    QJsonArray json;            // the same in the scenario format ("terrain" entries)
    QStringList log;            // one line per step with its rule number
    QStringList actions;        // the decisions in the action notation
};
// The method: the basic one (10.4) or terrain cards (16.6, advanced: the cards are dealt, the centre swaps
// and the defender's adjustment made by the simple policy, the features laid as the cards show, then roads).
enum class TerrainMethod { Basic, Cards };
// `choose` (optional): who takes the set-up decisions instead of the simple policy (the battle export's
// defender who places by the Area's character); it gets the engine, the state and the policy's random
// stream, and must answer one of the legal actions.
using SetupChooser = std::function<TAction(const TvbdEngine&, const BattleState&, wp::rules::Rng&)>;
TerrainProcedureResult runTerrainProcedure(const TvbdRules& rules, const BattleState& scenario, quint64 seed,
                                           TerrainMethod method = TerrainMethod::Basic,
                                           const SetupChooser& choose = {});
// The same on a scenario file's JSON: places terrain by 10.4 (or 16.6) and appends it to root["terrain"].
bool placeTerrainByProcedure(const TvbdRules& rules, QJsonObject* root, quint64 seed, QString* error,
                             QStringList* log = nullptr, TerrainMethod method = TerrainMethod::Basic);

} // namespace wp::tactical
