// The Brevis Editio: Tercios engine (seed 004; digest tercios-digest.md; decisions in docs/tercios.md) on
// the shared tactical table: the geometry services of geometry.h, the state's RNG (rules/rng.h), a value
// state replayed from (scenario, seed) plus an ordered action list, legal actions at every decision and
// rule-numbered log lines ("Tercios L552"). Distances are in inches.
#pragma once

#include "geometry.h"
#include "rules/rng.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <type_traits>

namespace wp::tactical {

struct AutoResult; // tactical_game.h
enum class Policy; // tactical_game.h

// ---- static rules data (resources/tactical/tercios.json) ------------------------------------------------
enum class TType { Foot, Horse, Artillery };
enum TRule : unsigned {
    RLarge = 1u << 0,
    RSquares = 1u << 1,
    RExtendedArc = 1u << 2,
    RLight = 1u << 3,
    RBrigade = 1u << 4,
    RCaracole = 1u << 5,
    RDragoon = 1u << 6,
    RPikes = 1u << 7,
    RHalberds = 1u << 8,
};
enum TFeature : unsigned {
    FDifficult = 1u << 0,
    FVeryDifficult = 1u << 1,
    FImpassable = 1u << 2,
    FHidden = 1u << 3,
    FCovered = 1u << 4,
    FHeight = 1u << 5,
    FProtected = 1u << 6,
};
enum class Value { Speed, Melee, Shoot, Discipline, Courage };

struct TProfile {
    QString id, name;
    TType type = TType::Foot;
    bool company = false; // Foot company (scores 1); other Foot are squadrons (G52)
    int speed = 0, melee = 0, shoot = 0, discipline = 0, courage = 0, stamina = 1;
    int defInf = 4, defCav = 4, defSalvo = 4, defArt = 4;
    QString weapon; // the missile weapon ("" for none)
    double range = 0;
    bool gun = false;
    unsigned rules = 0;
    double baseW = 3.15, baseD = 1.57; // inches
    int score = 1;
    bool classicOption = false; // Tercio option: no Squares / Ext. Arc, Shoot 4, Foot base (L1066)
    int classicShoot = 0;
    double classicW = 0, classicD = 0;
    QString source;
};

struct TRegimentDef {
    QString id, name, cat; // cat: Foot, Horse, BattleGroup, Artillery
    int cost = 0, slotCount = 1;
    QList<QStringList> units; // per slot: the allowed profiles ("-" = may be dropped)
    QString rule;             // "swedish1" / "swedishAll": dropping the Musketeers pays for the upgrades
    bool classicOption = false;
    QStringList factions; // empty = open to all (G46)
    QString source;
};

struct TTerrainType {
    unsigned features = 0;
    QList<unsigned> roll; // 6 entries when the features are rolled (Cropland, River)
    bool rollAll = false; // one roll for every piece of this type (Cropland)
};

struct TerciosRules {
    double tableW = 72, tableD = 48;
    int turnLimit = 8;
    QHash<QString, TProfile> profiles;
    QStringList profileOrder;
    QList<TRegimentDef> regiments;
    QHash<QString, QList<int>> catLimits; // cat -> {min, max}
    int pointsMin = 7, pointsMax = 12;
    QStringList factions;
    QHash<QString, TTerrainType> terrain;
    struct EndRow {
        int turn, adv;
        QString level;
    };
    QList<EndRow> endTable;
    const TRegimentDef* regiment(const QString& id) const;
};

bool loadTerciosRules(const QString& path, TerciosRules* out, QString* error);
const TerciosRules* defaultTerciosRules(QString* error = nullptr);

// ---- the value modifiers (Tercios L222-262, L1537-1553) -------------------------------------------------
// net = increases - decreases. A base of 0 stays 0 (G3).
int modifiedValue(int base, int net);

// The rulebook's modifier notation (Tercios L226, X1): "Speed++", "Fire-", "Courage+" -> (value, net).
// "Fire" is the profile tables' name for Shoot, "Combat" the text's for Melee.
std::optional<std::pair<Value, int>> parseModifierNotation(const QString& text);

// ---- army building (Tercios L818-1037) ------------------------------------------------------------------
struct ArmyRegiment {
    QString def;         // regiment id
    QStringList units;   // the chosen profile of each unit, in slot order ("-" for a dropped slot)
    QList<bool> classic; // per unit: the Tercio classic option
};
struct ArmyList {
    QString faction;
    int pointsLimit = 12;
    QList<ArmyRegiment> regiments;
};
// Problems (empty when legal): points, category limits, artillery slots, units per regiment, factions.
QStringList armyProblems(const TerciosRules& r, const ArmyList& a);
int armyCost(const TerciosRules& r, const ArmyList& a);

// ---- battle state --------------------------------------------------------------------------------------
enum class Card { None, Ready, Assault, Run, Fire, Resist, Hidden };
QString cardName(Card c);
std::optional<Card> cardFromName(const QString& s);

struct TTerrain {
    QString id, type;
    unsigned features = 0;
    Polygon poly;
    bool linear = false; // walls, fences: features apply when touching (G29)
    int occupant = -1;   // buildings
    bool large = false;  // buildings
    int roll = 0;        // the d6 that set the features (Cropland, River); 0 = none or not yet rolled
};

enum class TStatus { OnTable, Destroyed, Reserve }; // Reserve: not yet deployed (Tercios L1503-1505)

struct TUnit {
    QString id, name, profile;
    int side = 0;
    int regiment = -1;
    bool classic = false;
    Pose pose;
    int wear = 0;
    bool disordered = false;
    TStatus status = TStatus::OnTable;
    int building = -1; // index of the terrain piece it occupies
    // per turn
    Card card = Card::None;
    int group = -1;        // Brigade: units sharing one card carry the index of the first unit (L748-756)
    bool revealed = false; // the card has been shown to the opponent
    bool activated = false;
    // per activation
    int resistSerial = -1; // Resist! reaction: Courage+ during this activation serial (G22)
    bool onTable() const { return status == TStatus::OnTable; }
};

struct TRegiment {
    QString id, def, name;
    int side = 0;
    QList<int> units;
};

enum class TPhase {
    DeploySide, // the deployment roll-off winner (stepSide) chooses its deployment side (Tercios L1501)
    Deploy,     // the current side places one regiment in its deployment area (Tercios L1505)
    Planning,   // stepSide assigns order cards
    Initiative, // the initiative winner chooses who activates first
    Activate,   // the current side picks a unit
    Ready,      // the active unit chooses Ready! actions
    Assault,    // the active unit chooses a charge target or an approach
    Run,        // the active unit chooses its Run! move
    Fire,       // the active unit chooses a target
    Caracole,   // after a shot: caracole or not
    Reaction,   // the reacting side decides for the units in `reactors`
    Over
};

// The charge or move that reactions interrupt (Tercios L390-432).
struct TPending {
    int mover = -1;   // the enemy unit whose activation is interrupted
    int charger = -1; // >= 0: a declared charge by `charger` on `target`
    int target = -1;
    bool flank = false;
    bool interception = false;
    QList<int> reactors;      // units still to decide (reacting side)
    QList<int> fireAtContact; // reacting units whose fire is resolved at contact (G18)
    bool counter = false;     // the target countercharges
    Pose chargeFrom;          // the charger where it declared (flank, G15); it may pause on the way (G17)
};

struct TerciosState {
    QString title;
    double tableW = 72, tableD = 48;
    QString sideName[2] = {QStringLiteral("A"), QStringLiteral("B")};
    QString faction[2];
    int attacker = 0;
    int turnLimit = 8;
    int pointsLimit = 12; // the army-building limit the lists were built to (Tercios L822)
    int rank[2] = {0, 0}; // highest Commander rank (initiative tie-break, L330); 0 = none
    QList<TTerrain> terrain;
    QList<TRegiment> regiments;
    QList<TUnit> units;
    QStringList notes;

    // Deployment (scenario "deploy": true): zones along the long edges (Tercios L1497, G48 rolls 1-3)
    // or the short ones; deployEdge[side] = 0 the low edge (y or x near 0), 1 the high one.
    bool deployLong = true;
    int deployEdge[2] = {0, 1};
    bool orientationFixed = false; // "deployment": {"orientation"} given (an export rolled it, G48): no roll

    int turn = 0;
    TPhase phase = TPhase::Planning;
    int stepSide = 0;      // Planning: who assigns; Initiative: the winner
    int current = 0;       // whose alternation it is (Activate)
    int activeUnit = -1;   // the unit acting now
    QList<int> groupQueue; // Brigade units still to act in this slot
    int serial = 0;        // activation counter (Resist! reactions)
    QStringList readyDone; // Ready! actions taken this activation ("move", "face", "fire", "reorganize")
    bool mobilityUsed = false;
    bool activationStopped = false; // an interception won: the activation ends (L420)
    int shotTarget = -1;            // the last shot (Caracole)
    TPending pending;
    TPhase resume =
        TPhase::Activate;  // the phase to go back to after a reaction (Ready, or Activate = finish)
    QList<int> triggered;  // units already offered a reaction in this activation (G17)
    bool moveRest = false; // a voluntary move paused for reactions (G17): the rest goes to moveTo
    Vec2 moveTo;
    Card moveOrder = Card::None;

    int score[2] = {0, 0};
    int destroyed[2] = {0, 0}; // units lost by each side
    int winner = -1;           // 0/1, 2 draw
    QString level;             // Decisive, Clear, Fair, Pyrrhic, Draw
    QString resultReason;

    wp::rules::Rng rng;
    quint64 rolls = 0;
    QList<int> scripted; // tests: dice used before the RNG
    QStringList log;

    bool over() const { return phase == TPhase::Over; }
    int indexOf(const QString& id) const;
    int roll();
    QList<int> rollDice(int n);
    // A quiet state keeps no log (resolveTercios: the odds play thousands of battles whose logs nobody
    // reads); everything else is the same.
    bool quiet = false;
    void note(const QString& line) {
        if (!quiet)
            log << line;
    }
    // The same with the line built only when it is kept: the engine's notes, so that a quiet state does
    // not format them at all.
    template <class Make>
    requires std::is_invocable_r_v<QString, Make>
    void note(Make&& make) {
        if (!quiet)
            log << make();
    }
};

// Scenario (docs/tercios.md "Scenario format"): errors name file, JSON path and problem.
bool loadTerciosScenario(const QString& path, const TerciosRules& rules, TerciosState* out, QString* error);
bool terciosScenarioFromJson(const QJsonObject& root, const QString& fileName, const TerciosRules& rules,
                             TerciosState* out, QString* error);
// The army list of one side as stored in the state (for the validator).
ArmyList armyOf(const TerciosState& s, int side, int pointsLimit);

// What one side may see: the opponent's unrevealed cards become Card::Hidden (Brigade sharing stays
// visible: it is announced, L752), the scripted dice and the RNG are cleared.
TerciosState viewFor(const TerciosState& s, int side);

// ---- actions ---------------------------------------------------------------------------------------------
struct TcAction {
    enum Kind {
        Order,      // unit, card (or shareWith)
        First,      // side activates first
        Activate,   // unit
        Move,       // unit to `to` (Front Centre)
        Face,       // unit turns: dir 1 left, -1 right, 2 back; mobility = Horse's free Face
        Fire,       // unit shoots target; dir = source Centre (0 front, 1 left, -1 right)
        Reorganize, // unit
        Charge,     // unit charges target
        Approach,   // unit moves as close as possible to target (Assault! out of reach, G12)
        Caracole,   // unit
        Done,       // unit ends its activation (or declines a Caracole)
        React,      // unit reacts with its card; Ready!: dir 0 fire / 1 face
        Decline,    // unit does not react
        Side,       // deployment: the roll-off winner takes the low (target 0) or high (1) edge
        Deploy      // deployment: regiment `target` placed in a line centred on `to`
    } kind = Done;
    int unit = -1;
    int target = -1;
    Card card = Card::None;
    int dir = 0;
    bool mobility = false;
    Vec2 to;
    bool operator==(const TcAction&) const = default;
};

QString actionText(const TerciosState& s, const TcAction& a);
bool parseAction(const TerciosState& s, const QString& text, TcAction* out, QString* error);

// ---- the engine ------------------------------------------------------------------------------------------
struct ChargePath {
    Pose end; // the charger at contact
    double length = 0;
    bool flank = false;
    bool veryDifficult = false;
};

// Exact odds of a shot or a melee, for the view, assist mode and the AI (no dice rolled).
struct ShotOdds {
    double expectedWear = 0; // on the target
    double pDisorder = 0;    // the target's Resist roll has no success (after at least one hit)
    double pBreak = 0;       // the target's Wear goes over its Stamina and it fails the Break Check
};
struct MeleeOdds {
    double pWin = 0, pDraw = 0, pLose = 0; // for the attacker
    double wearOnTarget = 0, wearOnAttacker = 0;
};

struct ShotOption {
    int target = -1;
    int source = 0; // 0 Front Centre, 1 Left, -1 Right (Extended Arc)
};

class TerciosEngine {
  public:
    explicit TerciosEngine(const TerciosRules& rules) : r(rules) {}
    const TerciosRules& rules() const { return r; }

    void start(TerciosState& s) const; // terrain rolls, turn 1 planning
    int actor(const TerciosState& s) const;
    QString prompt(const TerciosState& s) const;
    // withMoves = false leaves out the candidate moves (apply checks any move destination itself).
    QList<TcAction> legalActions(const TerciosState& s, bool withMoves = true) const;
    bool apply(TerciosState& s, const TcAction& a, QString* error = nullptr) const;

    // ---- services (public for tests, AI and views) ----
    const TProfile& profile(const TerciosState& s, int u) const;
    TType type(const TerciosState& s, int u) const { return profile(s, u).type; }
    bool has(const TerciosState& s, int u, TRule rule) const;
    int stamina(const TerciosState& s, int u) const { return profile(s, u).stamina; }
    bool weary(const TerciosState& s, int u) const { return s.units[u].wear >= stamina(s, u); }
    bool steady(const TerciosState& s, int u) const { return s.units[u].wear == 0; }
    int shootBase(const TerciosState& s, int u) const;
    // Modified values for the situations of the rules.
    int speed(const TerciosState& s, int u, Card order, bool difficult) const;
    int shootDice(const TerciosState& s, int u, bool readyOrder, bool reaction) const;
    int meleeDice(const TerciosState& s, int u, int enemy, bool assault, bool flanked,
                  bool chargedByHorse) const;
    // `attacker` (the shooter or the enemy in melee; -1 any): a wall or fence covers and protects only
    // against an attack from its other side (Tercios L708, G29).
    int courageDice(const TerciosState& s, int u, bool vsShooting, bool flanked, bool charged,
                    int attacker = -1) const;
    // Covered and Protected of u's position against `attacker` (-1: any): its building, the area piece its
    // Front Centre is in, a wall or fence its Front Centre touches (within 0.6") with the attacker beyond.
    unsigned coverFeatures(const TerciosState& s, int u, int attacker) const;
    int disciplineDice(const TerciosState& s, int u, int net) const;
    Vec2 centre(const Pose& p, int which) const; // 0 front, 1 left, -1 right, 2 rear
    QList<Vec2> centres(const Pose& p) const;
    unsigned featuresAt(const TerciosState& s, Vec2 p) const;
    unsigned pathFeatures(const TerciosState& s, Vec2 a, Vec2 b) const;
    bool allCentresIn(const TerciosState& s, const Pose& p, unsigned feature) const;
    // `enter`: a building the line may go into (a Ready! move occupying it, Tercios L1473).
    bool lineClear(const TerciosState& s, Vec2 a, Vec2 b, int self, int target, bool sight,
                   int enter = -1) const;
    // Bridges and Fords (Tercios L1469): p stands on one; every point of a-b inside the river is on one.
    bool onCrossing(const TerciosState& s, Vec2 p) const;
    bool crossesAtBridge(const TerciosState& s, Vec2 a, Vec2 b, const TTerrain& river) const;
    // The empty building a Ready! move of u to `to` occupies (Tercios L1471-1473: a Company in a small
    // one, any Foot in a large one), or -1.
    int buildingEntered(const TerciosState& s, int u, Vec2 to, Card order) const;
    bool lineOfSight(const TerciosState& s, int u, int t, int source = 0) const;
    QList<ShotOption> shotOptions(const TerciosState& s, int u) const;
    // The Centre u can shoot t from now (0 front, 1 left, -1 right; Tercios L503-519, L774): t in range and
    // in sight from it, in its arc; nullopt when u cannot shoot t.
    std::optional<int> shotSource(const TerciosState& s, int u, int t) const;
    bool canShoot(const TerciosState& s, int u, Card order, bool reaction) const;
    bool enemyInSight(const TerciosState& s, int u) const;
    std::optional<ChargePath> chargePath(const TerciosState& s, int u, int t,
                                         Card order = Card::Assault) const;
    bool isFlankCharge(const TerciosState& s, const Pose& chargerStart, int t) const;
    // The pose after a voluntary move of the Front Centre to `to`, or nullopt with the reason.
    std::optional<Pose> checkMove(const TerciosState& s, int u, Vec2 to, Card order,
                                  QString* why = nullptr) const;
    // A handful of legal destinations; `poses` (optional) receives the pose of each.
    QList<Vec2> candidateMoves(const TerciosState& s, int u, Card order, QList<Pose>* poses = nullptr) const;
    // The active unit may still move now (Ready!/Run!: one move; a Square not after a face, L350, L742).
    bool canMoveNow(const TerciosState& s, int u) const;
    // Deployment (Tercios L1503-1505): the poses of regiment `reg` in a line centred on `at`, facing the
    // enemy, 1" apart, or nullopt (outside the area, overlapping, impassable terrain) with the reason.
    std::optional<QList<Pose>> deployPoses(const TerciosState& s, int reg, Vec2 at,
                                           QString* why = nullptr) const;
    QList<Vec2> deployAnchors(const TerciosState& s, int reg) const; // a representative legal set
    bool canFace(const TerciosState& s, int u, int dir) const;
    double nearestEnemy(const TerciosState& s, int u, const Pose& p) const;

    ShotOdds shotOdds(const TerciosState& s, int u, int t, bool readyOrder, bool reaction) const;
    // The attacker charges under Assault!; flank and countercharge as in melee().
    MeleeOdds meleeOdds(const TerciosState& s, int a, int d, bool flank, bool counter) const;

    // Resolution steps (public for constructed-position tests). They roll dice from the state.
    bool orderCheck(TerciosState& s, int u, int net, const QString& why) const; // L376-386
    void resolveShot(TerciosState& s, int u, int t, bool readyOrder, bool reaction, int source = 0) const;
    void addWear(TerciosState& s, int u, int n, int enemySide, const QString& why) const;
    bool breakCheck(TerciosState& s, int u, int enemySide) const; // L552-572; false = destroyed
    void resistOrder(TerciosState& s, int u) const;               // L372, L746
    // Melee between an attacker (the charger) and a defender already in contact (L590-712): +1 the attacker
    // won, -1 the defender won, 0 a draw.
    int melee(TerciosState& s, int a, int d, bool flank, bool counter) const;
    void destroy(TerciosState& s, int u, int enemySide, const QString& why) const;
    // Moves straight back (positive dist) or forward, stopping 1" short of obstacles (G36). Returns the
    // distance covered.
    double slide(TerciosState& s, int u, Vec2 dir, double dist) const;
    void endOfTurn(TerciosState& s) const;
    void checkEnd(TerciosState& s, bool turnEnd) const;

  private:
    void beginTurn(TerciosState& s) const;
    void nextDeployment(TerciosState& s) const;
    void startActivation(TerciosState& s, int u) const;
    void finishActivation(TerciosState& s) const;
    void afterAction(TerciosState& s) const;
    void declareCharge(TerciosState& s, int u, int t, bool interception) const;
    void advanceCharge(TerciosState& s) const; // G17: pauses where the path passes a unit that may react
    void resolveCharge(TerciosState& s) const;
    // The base overlaps a unit other than u and `ignore`, impassable terrain, or leaves the table.
    bool baseBlocked(const TerciosState& s, int u, const Pose& p, int ignore) const;
    void offerMoveReactions(TerciosState& s, int mover) const;
    // Reaction fire (Tercios L400, L422): whether reactor x may choose to shoot, and the shot itself (from
    // the Centre that sees the target; none when it cannot see it in range).
    bool reactionShot(const TerciosState& s, int x) const;
    void reactionFire(TerciosState& s, int x, int t, bool readyOrder) const;
    void react(TerciosState& s, int u, int dir) const;
    void faceTowards(TerciosState& s, int u, Vec2 p) const;
    bool blockedPose(const TerciosState& s, int u, const Pose& p, bool allowContactWith = false,
                     int with = -1, int enter = -1) const;
    // Impassable terrain under the base, except the unit's own building, `enter`, the building of unit
    // `ignoreUnit` and a river where the base's centre is on a Bridge or Ford.
    bool terrainBlocks(const TerciosState& s, int u, const Pose& p, const Corners& poly, int enter,
                       int ignoreUnit) const;
    void leaveBuilding(TerciosState& s, int u) const;
    void doMove(TerciosState& s, int u, Vec2 to, Card order) const;
    void voluntaryMove(TerciosState& s, int u, Vec2 to, Card order) const; // pauses where a reaction is due
    bool eligibleForMoveReaction(const TerciosState& s, int mover, int e) const;
    std::optional<Vec2> approachPoint(const TerciosState& s, int u, int t) const; // G12
    // Assault! out of reach (G12); a voluntary approach may pause for reactions (G17) and then finishes the
    // action, an involuntary one (a charge that cannot be completed) only moves.
    void approach(TerciosState& s, int u, int t, bool voluntary) const;
    const TerciosRules& r;
};

// ---- game: log, undo, auto-resolve (shared AutoResult of tactical_game.h) -------------------------------
class TerciosGame {
  public:
    TerciosGame(const TerciosEngine& engine, const TerciosState& scenario, quint64 seed);
    const TerciosState& state() const { return m_state; }
    const QList<TcAction>& actions() const { return m_actions; }
    QStringList actionTexts() const { return m_texts; }
    bool apply(const TcAction& a, QString* error = nullptr);
    bool applyText(const QString& text, QString* error = nullptr);
    bool canUndo() const { return !m_undo.isEmpty(); }
    bool undo();
    const TerciosEngine& engine() const { return m_engine; }

  private:
    const TerciosEngine& m_engine;
    TerciosState m_state;
    QList<TcAction> m_actions;
    QStringList m_texts;
    QList<std::pair<TerciosState, qsizetype>> m_undo;
};

// A simple policy for either side (always one of engine.legalActions(s)); random = uniformly random.
TcAction chooseTerciosAction(const TerciosEngine& engine, const TerciosState& s, bool random,
                             wp::rules::Rng& rng);
AutoResult summarize(const TerciosState& s);
AutoResult autoResolve(TerciosGame& game, bool random, quint64 policySeed, int maxActions = 20000);
// Each side its own policy: random[side] (true = random play, false = simple), for win rates against random.
AutoResult autoResolve(TerciosGame& game, std::array<bool, 2> random, quint64 policySeed,
                       int maxActions = 20000);
// The same with the TVBD policy enum, for callers of both rulesets: Policy::Random = random play,
// Policy::Simple the simple policy, and Policy::Tactical — the tactical AI is TVBD's (tvbd_ai.h) — Tercios'
// strongest policy, the simple one (docs/tercios.md "Auto-resolve").
AutoResult autoResolve(TerciosGame& game, Policy policy, quint64 policySeed, int maxActions = 20000);
// The battle of TerciosGame(engine, scenario, seed) auto-resolved with policy seed `seed` (the same actions
// and result as autoResolve on that game), without the game's undo copies and action texts: for odds and
// benchmarks that only need the result.
AutoResult resolveTercios(const TerciosEngine& engine, const TerciosState& scenario, quint64 seed,
                          std::array<bool, 2> random, int maxActions = 20000);

} // namespace wp::tactical
