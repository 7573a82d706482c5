// Tilly's Very Bad Day v2.0 engine (issue 10): the worked examples of the rulebook (digest §12, each
// checked against the seed text), one test per rule section, the scenario loader, the CLI and random play.
// Positions are built directly on the battle state; dice are scripted through BattleState::scripted.
#include "tactical/sidewords.h"
#include "tactical/tactical_game.h"
#include "tactical/tvbd.h"
#include "tactical/tvbd_ai.h"
#include "tactical/tvbd_odds.h"
#include "tvbd_fixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cstring>

using namespace wp::tactical;

namespace {

const QString kFixtures = QStringLiteral(WESTPHALIA_TEST_DIR "/fixtures/tactical/");

// A constructed position: side 0 ("A") and side 1 ("B"), one command each (A = command 0, B = command 1).
struct Pos {
    BattleState s;
    const TvbdRules& r;
    explicit Pos(const TvbdRules& rules) : r(rules) {
        s.tableW = 45;
        s.tableD = 30;
        s.sideName[0] = QStringLiteral("A");
        s.sideName[1] = QStringLiteral("B");
        for (int side = 0; side < 2; ++side) {
            Command c;
            c.id = c.name = side ? QStringLiteral("B") : QStringLiteral("A");
            c.side = side;
            s.commands << c;
        }
    }
    int add(int side, UnitType t, double x, double y, double facing, int resolve = -1,
            Quality q = Quality::Ordinary, bool large = false) {
        Unit u;
        u.id = QStringLiteral("%1%2").arg(side ? QLatin1Char('B') : QLatin1Char('A')).arg(s.units.size());
        u.side = side;
        u.type = t;
        u.quality = q;
        u.large = large;
        u.command = side;
        const TypeInfo& ti = r.type(t);
        u.pose = Pose{{x, y}, facing, ti.w, large ? 2 * ti.d : ti.d};
        u.startResolve = r.startResolve(t, q, large);
        u.resolve = resolve > 0 ? resolve : u.startResolve;
        u.combatLoss = u.startResolve - u.resolve;
        const int idx = int(s.units.size());
        s.units << u;
        s.originalUnits[side] += large ? 2 : 1;
        s.commands[side].initialUnits += large ? 2 : 1;
        if (t == UnitType::Commander)
            s.commands[side].commander = idx;
        return idx;
    }
    void terrain(const QString& type, const Polygon& p) {
        TerrainFeature f;
        f.id = type;
        f.type = type;
        const TerrainTypeInfo ti = r.terrain.value(type);
        f.cls = ti.cls;
        f.blocksLOS = ti.blocksLOS;
        f.elevated = ti.elevated;
        f.pieces << p;
        Vec2 c;
        for (const Vec2& v : p)
            c = c + v * (1.0 / double(p.size()));
        f.peak = c;
        f.radius = 1e9;
        for (const Vec2& v : p)
            f.radius = std::min(f.radius, (v - c).length());
        s.terrain << f;
    }
};

// A fixture scenario whose set-up is left to the players (10.4 terrain by the defender, 10.6 deployment),
// without its own terrain.
QJsonObject setupJson(const char* fixture, bool terrain, bool deployment) {
    QFile f(kFixtures + QLatin1String(fixture));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    root.remove(QStringLiteral("terrain"));
    root.insert(QStringLiteral("setup"),
                QJsonObject{{QStringLiteral("terrain"),
                             terrain ? QStringLiteral("defender") : QStringLiteral("scenario")},
                            {QStringLiteral("deployment"),
                             deployment ? QStringLiteral("players") : QStringLiteral("scenario")}});
    return root;
}

// The state of such a scenario with the attacker fixed (-1: rolled).
bool setupState(const TvbdRules& rules, const char* fixture, bool terrain, bool deployment, int attacker,
                BattleState* s, QString* error) {
    QJsonObject root = setupJson(fixture, terrain, deployment);
    if (attacker >= 0)
        root.insert(QStringLiteral("attacker"), attacker);
    else
        root.remove(QStringLiteral("attacker"));
    return scenarioFromJson(root, QStringLiteral("x.json"), rules, s, error);
}

// The white-mountain battle with terrain cards (16.6), the attacker side 0, deployment by the players or not.
bool cardsState(const TvbdRules& rules, bool deployment, BattleState* s, QString* error) {
    QJsonObject root = setupJson("tvbd-white-mountain.json", false, deployment);
    root.insert(QStringLiteral("setup"),
                QJsonObject{{QStringLiteral("terrain"), QStringLiteral("cards")},
                            {QStringLiteral("deployment"),
                             deployment ? QStringLiteral("players") : QStringLiteral("scenario")}});
    root.insert(QStringLiteral("attacker"), 0);
    return scenarioFromJson(root, QStringLiteral("x.json"), rules, s, error);
}

bool applyText(const TvbdEngine& e, BattleState& s, const QString& text, QString* error = nullptr) {
    TAction a;
    QString err;
    const bool ok = parseAction(s, text, &a, &err) && e.apply(s, a, &err);
    if (error)
        *error = err;
    return ok;
}

const QString kScenarios = QStringLiteral(WESTPHALIA_TEST_DIR "/../scenarios/battles/");

// A pick-up scenario whose armies the players recruit (10.2) with an army size (units or coins), the
// attacker side 0; terrain by the scenario (none), deployment by the players.
QJsonObject recruitJson(const char* budgetKey, int budget, const QJsonObject& options = {}) {
    return QJsonObject{
        {QStringLiteral("format"), QStringLiteral("westphalia-tactical-scenario")},
        {QStringLiteral("rules"), QStringLiteral("tvbd")},
        {QStringLiteral("size"), QStringLiteral("small")},
        {QStringLiteral("attacker"), 0},
        {QStringLiteral("sides"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Imperialists")}},
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("Swedes")}}}},
        {QStringLiteral("armySize"), QJsonObject{{QLatin1String(budgetKey), budget}}},
        {QStringLiteral("options"), options},
        {QStringLiteral("setup"), QJsonObject{{QStringLiteral("armies"), QStringLiteral("players")},
                                              {QStringLiteral("deployment"), QStringLiteral("players")}}}};
}

// Whether the engine offers an action of this kind to the unit now.
bool offered(const TvbdEngine& e, const BattleState& s, TAction::Kind kind, int unit) {
    for (const TAction& a : e.legalActions(s))
        if (a.kind == kind && a.unit == unit)
            return true;
    return false;
}

QStringList legalTexts(const TvbdEngine& e, const BattleState& s) {
    QStringList out;
    for (const TAction& a : e.legalActions(s))
        out << actionText(s, a);
    return out;
}

bool logHas(const BattleState& s, const QString& text) {
    for (const QString& l : s.log)
        if (l.contains(text))
            return true;
    return false;
}

} // namespace

class TestTvbd : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    // worked examples (digest §12)
    void t01_facingZones();
    void facingZoneShortcuts();
    void overlapAndDistanceShortcuts();
    void t02_shootingPrimarySecondaryCommander();
    void t03_friendToFrontBlocksFrontFire();
    void t04_cannonAndFlankShot();
    void t05_horseShootsAtDragoonsInCover();
    void t06_mutualChargesMeetHalfway();
    void t07_cavalryCancelsInfantryCharge();
    void t08_horseChargeCancelsInfantryDeclaration();
    void t09_frontBeforeFlankAndCancel();
    void t10_contactZoneByStartZone();
    void chargePlanFollowsTheTable();
    void t11_meleeDicePrimarySecondary();
    void t12_meleeOddsEven();
    void t13_sameToHitAllowsSplit();
    void t14_choosePrimaryFighter();
    void t15_enemyToRearZeroDice();
    void t16_chooseTargetByToHit();
    void t17_rallyBackBlockedByFriend();
    void t18_rallyBackThroughFriendlyHorse();
    void t19_chargingUphill();
    void t21_armyBreakpoints();
    void t22_variableArmyMorale();
    void t23_commandBreakpoints();
    void r16_10_commandMorale();
    void t24_coinsAndQuality();
    void t25_largePikeShotDice();
    void t26_exampleArmies();
    void t28_probabilities();
    void t28_pursuitProbability();
    void t20_fieldFortifications();
    void r16_10_3_cavalryPursuit();
    void t29_wheelCost();
    // rule sections
    void r12_1_1_inCommandAndCheck();
    void r12_1_3_difficultTerrainCap();
    void r12_1_10_bufferZone();
    void r12_1_11_zoneOfControl();
    void r12_1_12_interpenetration();
    void r12_1_7_cannonUnlimberAndPivot();
    void r12_1_13_turnToFace();
    void r12_2_3_lineOfSight();
    void r12_2_7_closestTarget();
    void r14_5_10_cannonOverrun();
    void r14_5_6_support();
    void r15_2_commanderLoss();
    void r15_3_erosionAndHeroics();
    void r15_5_commanderRally();
    void r10_3_15_6_turnLimit();
    void r11_initiative();
    void r10_3_attackerRoll();
    // machinery
    void scenariosLoad();
    void scenarioErrors();
    void actionTextRoundTrip();
    void undoUntilDice();
    void replayIsDeterministic();
    void randomPlayEndsEveryBattle();
    void t27_attackerTerrainChange();
    void r14_1_4_commanderChargeToAttach();
    void r16_5_6_fortificationCost();
    void r10_4_terrainLimits();
    void r10_5_10_6_scoutingAndDeployment();
    void sideNamesAgreeInTheLog();
    void r10_4_terrainProcedureApi();
    void t30_terrainCards();
    void r16_6_terrainCardsProcedure();
    void r10_5_scoutingBenefit2();
    void setupRandomPlayAndReplay();
    // set-up 1.1, 1.2 and the advanced set-up rules
    void r10_1_gameSize();
    void r10_2_recruitByUnits();
    void r10_2_secretOrderOfBattle();
    void r7_3_2_lightHorseNationality();
    void r16_3_2_recruitByCoins();
    void r16_4_aggressiveAttacker();
    void r10_5_scoutingBenefit1();
    void r16_7_twoStreams();
    void r16_6_8_roadsAvoidTerrain();
    void armySizeBudget();
    void recruitRandomPlayAndReplay();
    // rule sections without a test of their own before
    void r8_2_terrainClasses();
    void r10_7_bombardment();
    void r12_1_5_changeOfDirectionByQuality();
    void r12_1_9_commanderMovement();
    void r12_2_5_rangeMarkersCannonMoveOrShoot();
    void r14_1_2_chargingCriteria();
    void r14_3_evades();
    void r14_5_7_horseInDifficultTerrain();
    void r14_5_9_commanderInMelee();
    void r15_1_markersRemoved();
    void r16_8_16_9_shallowAndGiantTables();
    void cliAutoResolve();
    void cliBadInput();
    // the tactical AI (Policy::Tactical, tvbd_ai.h)
    void aiChoosesOnlyLegalActions();
    void aiIsDeterministic();
    void aiChargesWhenTheOddsFavourIt();
    void aiCannonShoots();
    void aiRalliesAShakenUnit();
    void aiKeepsItsLine();
    void aiHorseMakesForTheFlank();
    void aiAttackerGoesRoundABlock();
    void aiOddsMatchTheDice();
    void chargeOddsFollowTheTable();
    void checkMoveFollowsTheTable();

  private:
    const TvbdRules* rules = nullptr;
};

void TestTvbd::initTestCase() {
    QString error;
    rules = defaultTvbdRules(&error);
    QVERIFY2(rules, qPrintable(error));
}

// T1, 7.2.6 facing zones (Fig. 4): the unit considered is a Spanish Shot facing +y.
void TestTvbd::t01_facingZones() {
    const Pose shot{{20, 15}, 90, 2, 1}; // x 19..21, y 14.5..15.5
    // French Pike+Shot in the front zone, reaching into a front-flank zone: to-front.
    QCOMPARE(classify(shot, Pose{{21, 17}, 270, 2, 1}), Zone::Front);
    // Spanish Horse in a front-flank zone only: to-front-flank.
    QCOMPARE(classify(shot, Pose{{23, 17}, 270, 2, 1}), Zone::FrontFlank);
    // French Horse spanning front-flank, rear-flank and rear zones: to-front-flank.
    const Polygon frenchHorse{{20.6, 13.8}, {21.2, 13.6}, {22.5, 16.5}, {21.9, 16.7}};
    QCOMPARE(classify(shot, frenchHorse), Zone::FrontFlank);
    // Spanish Cannon in a rear-flank zone: behind-flank.
    QCOMPARE(classify(shot, Pose{{22.5, 14.5}, 90, 1, 1}), Zone::BehindFlank);
    // Spanish Pike+Shot entirely in the rear zone: to-rear.
    QCOMPARE(classify(shot, Pose{{20, 13}, 90, 2, 1}), Zone::Rear);
    // A stand against the side edge, flush with the front edge, is behind-flank (Fig. 18 text); one that
    // reaches past the front edge line is to-front-flank; one touching the front edge is to-front.
    QCOMPARE(classify(shot, Pose{{21.5, 14.5}, 180, 2, 1}), Zone::BehindFlank);
    QCOMPARE(classify(shot, Pose{{21.5, 15}, 180, 2, 1}), Zone::FrontFlank);
    QCOMPARE(classify(shot, Pose{{20, 16}, 270, 2, 1}), Zone::Front);
    QVERIFY(isFlank(Zone::FrontFlank) && isFlank(Zone::BehindFlank) && !isFlank(Zone::Front));
}

// 7.2.6: inFront and inRear (classify's first and last tests, taken alone for speed) give classify's own
// answers: stands all around a unit, at every 15 degrees, some flush with its edges or half a stand off them.
void TestTvbd::facingZoneShortcuts() {
    const Pose shot{{20, 15}, 90, 2, 1}; // x 19..21, y 14.5..15.5
    int rear = 0, front = 0, checked = 0;
    for (double x = 16; x <= 24; x += 0.5)
        for (double y = 11; y <= 19; y += 0.5)
            for (double facing = 0; facing < 360; facing += 15) {
                const Pose other{{x, y}, facing, 2, 1};
                if (overlaps(shot, other, 1e-3))
                    continue;
                const Zone z = classify(shot, other);
                QCOMPARE(inRear(shot, other), z == Zone::Rear);
                QCOMPARE(inFront(shot, other), z == Zone::Front);
                rear += z == Zone::Rear ? 1 : 0;
                front += z == Zone::Front ? 1 : 0;
                ++checked;
            }
    // The grid reaches every zone: both answers were met both ways.
    QVERIFY(rear > 0 && front > 0 && rear + front < checked);
    // Flush with the rear edge, and against it but reaching past a side edge.
    QVERIFY(inRear(shot, Pose{{20, 14}, 90, 2, 1}));
    QVERIFY(!inRear(shot, Pose{{20.5, 14}, 90, 2, 1}));
}

// 7.2.5, 12.1.12 (terrain under a stand, stands apart): the terrain pieces' overlap test with their axes
// taken once gives the plain test's answers, and two stands' distance from their corners is the polygons'
// distance bit for bit: stands at every 15 degrees all about an ellipse (a woods piece), a rectangle and
// another stand, some overlapping, some touching, some apart.
void TestTvbd::overlapAndDistanceShortcuts() {
    const QList<Polygon> pieces{ellipse({20, 15}, 3, 2, 20), rectangle({20, 15}, 4, 2, 30), Polygon{}};
    const Pose other{{20, 15}, 60, 2, 1};
    int in = 0, out = 0, checked = 0;
    for (const Polygon& piece : pieces) {
        const ConvexAxes axes = convexAxes(piece);
        for (double x = 15; x <= 25; x += 0.5)
            for (double y = 10; y <= 20; y += 0.5)
                for (double facing = 0; facing < 360; facing += 15) {
                    const Pose p{{x, y}, facing, 2, 1};
                    for (double tol : {1e-3, 0.0, -0.5}) {
                        const bool plain = overlaps(p, piece, tol);
                        QCOMPARE(overlaps(p, piece, axes, tol), plain);
                        (plain ? in : out) += 1;
                    }
                    const double fromCorners = distance(p, other),
                                 fromPolygons = distance(p.polygon(), other.polygon());
                    QCOMPARE(std::memcmp(&fromCorners, &fromPolygons, sizeof fromCorners), 0);
                    ++checked;
                }
    }
    QVERIFY(in > 0 && out > 0);
    QVERIFY(checked > 0);
    // Touching (flush edges) is not overlapping; a hair across is.
    const Polygon square = rectangle({10, 10}, 2, 2, 0);
    QVERIFY(!overlaps(Pose{{12, 10}, 0, 2, 2}, square, convexAxes(square), 1e-3));
    QVERIFY(overlaps(Pose{{11.99, 10}, 0, 2, 2}, square, convexAxes(square), 1e-3));
}

// T2, 12.2.8-12.2.16 (shooting example, Fig. 15/16).
void TestTvbd::t02_shootingPrimarySecondaryCommander() {
    Pos p(*rules);
    const int pike = p.add(0, UnitType::PikeShot, 20, 14, 90);
    const int shot = p.add(0, UnitType::Shot, 22.2, 14, 100, 3);
    const int horse = p.add(1, UnitType::Horse, 20, 17, 270);
    const int cmdr = p.add(1, UnitType::Commander, 20, 17, 270);
    p.s.units[cmdr].attachedTo = horse;
    TvbdEngine e(*rules);
    QVERIFY(e.shootTargets(p.s, pike).contains(horse));
    QVERIFY(e.shootTargets(p.s, shot).contains(horse));
    QCOMPARE(e.shootingDice(p.s, pike, horse, true), 4);
    QCOMPARE(e.shootingDice(p.s, shot, horse, false), 1);
    p.s.scripted = {1, 2, 6, 6, 6, 5, 1}; // 4d6 + 1d6; Commander hit 5 (needs 5+ as the unit routed); save 1
    e.resolveShot(p.s, horse, pike, {shot});
    QCOMPARE(p.s.units[horse].status, UnitStatus::Routed);
    QVERIFY(logHas(p.s, QStringLiteral("3 hits")));
    QVERIFY(logHas(p.s, QStringLiteral("needing 5+")));
    QCOMPARE(p.s.units[cmdr].status, UnitStatus::Casualty);
    QVERIFY(p.s.commands[1].commanderLost);
    QCOMPARE(p.s.lost[1], 2); // the Horse and the Commander
    QCOMPARE(p.s.routsThisTurn.size(), 1);
    QVERIFY(p.s.units[pike].shotMarker && p.s.units[shot].shotMarker);
    QVERIFY(p.s.scripted.isEmpty());
}

// T3, 12.2.7: a friend to-front in range stops fire to-front; fire to a flank is still allowed.
void TestTvbd::t03_friendToFrontBlocksFrontFire() {
    Pos p(*rules);
    const int imp = p.add(0, UnitType::PikeShot, 10, 10, 90);
    p.add(0, UnitType::PikeShot, 10, 12, 90); // the Spanish ally in front
    const int front = p.add(1, UnitType::PikeShot, 10, 13.8, 270);
    const int flank = p.add(1, UnitType::PikeShot, 13, 11.5, 180);
    TvbdEngine e(*rules);
    bool toFront = true;
    const QList<int> t = e.shootTargets(p.s, imp, &toFront);
    QVERIFY(!toFront);
    QVERIFY(!t.contains(front));
    QVERIFY(t.contains(flank));
    QCOMPARE(e.shootingDice(p.s, imp, flank, true), 1); // to-flank: 1d6
}

// T4, 12.2.6, 12.2.8, 12.2.10: Cannon primary to-front (2d6), Pike+Shot secondary to-flank (1d6).
void TestTvbd::t04_cannonAndFlankShot() {
    Pos p(*rules);
    const int cannon = p.add(0, UnitType::Cannon, 12, 8, 90);
    const int pike = p.add(0, UnitType::PikeShot, 8, 13.5, 90);
    const int bern = p.add(1, UnitType::PikeShot, 12, 16, 270, 2);
    TvbdEngine e(*rules);
    QVERIFY(e.shootTargets(p.s, cannon).contains(bern));
    QVERIFY(e.shootTargets(p.s, pike).contains(bern));
    QCOMPARE(classify(p.s.units[pike].pose, p.s.units[bern].pose), Zone::FrontFlank);
    QCOMPARE(e.shootingDice(p.s, cannon, bern, true), 2);
    QCOMPARE(e.shootingDice(p.s, pike, bern, true), 1); // to-flank, even as primary
    p.s.scripted = {1, 2, 6};
    e.resolveShot(p.s, bern, cannon, {pike});
    QCOMPARE(p.s.units[bern].resolve, 1);
    QVERIFY(p.s.units[cannon].shotMarker && p.s.units[pike].shotMarker);
    // 12.2.6: a Cannon never shoots to a flank.
    const int side = p.add(1, UnitType::Horse, 15, 8, 180);
    QVERIFY(!e.shootTargets(p.s, cannon).contains(side));
}

// T5, 12.2.13: Horse (resolve 3) shooting at Dragoons in an enclosed field rolls 2d6.
void TestTvbd::t05_horseShootsAtDragoonsInCover() {
    Pos p(*rules);
    const int horse = p.add(0, UnitType::Horse, 10, 10, 90);
    const int drag = p.add(1, UnitType::Dragoons, 10, 12, 270);
    TvbdEngine e(*rules);
    QCOMPARE(e.shootingDice(p.s, horse, drag, true), 3);
    p.terrain(QStringLiteral("field"), rectangle({10, 13}, 4, 3, 90));
    QCOMPARE(e.shootingDice(p.s, horse, drag, true), 2);
    // 12.2.12: Horse in difficult terrain also lose a die; never below 1.
    p.terrain(QStringLiteral("woods"), rectangle({10, 9.5}, 3, 2, 90));
    QCOMPARE(e.shootingDice(p.s, horse, drag, true), 1);
    p.s.units[horse].resolve = 1;
    QCOMPARE(e.shootingDice(p.s, horse, drag, true), 1);
}

// T6, 14.4: charges on each other both happen; the active side moves first; they meet halfway.
void TestTvbd::t06_mutualChargesMeetHalfway() {
    Pos p(*rules);
    const int imp = p.add(0, UnitType::Horse, 10, 10, 90);   // front edge y 10.5
    const int bern = p.add(1, UnitType::Horse, 10, 13, 270); // front edge y 12.5
    p.s.active = 1;
    p.s.units[imp].chargeTarget = bern;
    p.s.units[bern].chargeTarget = imp;
    TvbdEngine e(*rules);
    e.cancelCharges(p.s);
    QCOMPARE(p.s.units[imp].chargeTarget, bern); // neither cancels: each can answer the other
    e.resolveCharges(p.s);
    QVERIFY(p.s.units[imp].charged && p.s.units[bern].charged);
    QVERIFY(e.distance(p.s, imp, bern) <= kContactEps);
    QVERIFY(qAbs(p.s.units[bern].pose.c.y - 12.0) < 0.05); // the Berhardines (active) went half of the 2 TUM
    QVERIFY(qAbs(p.s.units[imp].pose.c.y - 11.0) < 0.05);
    QVERIFY(logHas(p.s, QStringLiteral("meet halfway")));
}

// T7, 14.2 rule 2: a cavalry charge cancels the charges of the infantry it targets.
void TestTvbd::t07_cavalryCancelsInfantryCharge() {
    Pos p(*rules);
    const int horse = p.add(0, UnitType::Horse, 10, 10, 90);
    const int pike = p.add(1, UnitType::PikeShot, 10, 12.5, 270);
    p.s.units[horse].chargeTarget = pike;
    p.s.units[pike].chargeTarget = horse; // the Spanish counter-charge
    TvbdEngine e(*rules);
    e.cancelCharges(p.s);
    QCOMPARE(p.s.units[pike].chargeTarget, -1);
    QCOMPARE(p.s.units[horse].chargeTarget, pike);
}

// T8, 14.2: French Pike+Shot declares on Spanish Pike+Shot; Spanish Horse declares on the French: cancelled.
void TestTvbd::t08_horseChargeCancelsInfantryDeclaration() {
    Pos p(*rules);
    const int french = p.add(0, UnitType::PikeShot, 10, 10, 90);
    const int spanishPike = p.add(1, UnitType::PikeShot, 10, 12.5, 270);
    const int spanishHorse = p.add(1, UnitType::Horse, 12.5, 12, 225);
    TvbdEngine e(*rules);
    QVERIFY(e.chargePlan(p.s, spanishHorse, french).has_value());
    p.s.units[french].chargeTarget = spanishPike;
    p.s.units[spanishHorse].chargeTarget = french;
    e.cancelCharges(p.s);
    QCOMPARE(p.s.units[french].chargeTarget, -1);
    QCOMPARE(p.s.units[spanishHorse].chargeTarget, french);
}

// T9, 14.1.3 front before flank and 14.2 rule 1 (Fig. 19 D).
void TestTvbd::t09_frontBeforeFlankAndCancel() {
    Pos p(*rules);
    const int bern = p.add(1, UnitType::PikeShot, 10, 10, 90);     // front edge y 10.5
    const int cannon = p.add(0, UnitType::Cannon, 10, 12.5, 270);  // to-front of the Berhardines, 1.5 away
    const int imp = p.add(0, UnitType::PikeShot, 12.5, 12.5, 270); // to-front-flank, nothing to its front
    TvbdEngine e(*rules);
    const auto opts = e.chargeOptions(p.s, bern);
    QCOMPARE(opts.size(), 1); // only the Cannon straight ahead
    QCOMPARE(opts.first().first, cannon);
    QCOMPARE(opts.first().second.wheel, 0.0);
    // The Imperialist Pike+Shot has no enemy to-front in reach, so it may wheel to charge.
    const auto plan = e.chargePlan(p.s, imp, bern);
    QVERIFY(plan.has_value());
    QVERIFY(plan->wheel < 0.0); // a wheel to the right
    QCOMPARE(plan->startZone, Zone::FrontFlank);
    QVERIFY(plan->contactZone == Zone::Front || plan->contactZone == Zone::FrontFlank);
    // the full 45-degree wheel of the figure brings it in to-front (contact at the corner, 2.945 TUM in all)
    const Pose w = wheeled(p.s.units[imp].pose, -45);
    const Pose end{w.c + w.forward() * 1.4142, w.facing, w.w, w.d};
    QVERIFY(distance(end.polygon(), p.s.units[bern].pose.polygon()) < 0.01);
    QCOMPARE(classify(p.s.units[bern].pose, end), Zone::Front);
    p.s.units[bern].chargeTarget = cannon;
    p.s.units[imp].chargeTarget = bern;
    e.cancelCharges(p.s);
    QCOMPARE(p.s.units[bern].chargeTarget, -1); // the guns are saved
}

// T10, 14.4.2: where a charge may make contact depends on where it started.
void TestTvbd::t10_contactZoneByStartZone() {
    Pos p(*rules);
    const int target = p.add(1, UnitType::PikeShot, 20, 15, 90); // x 19..21, y 14.5..15.5
    const int fPike = p.add(0, UnitType::PikeShot, 20, 18, 270);
    const int fHorse = p.add(0, UnitType::Horse, 22.8, 17.8, 225);
    const int bPike = p.add(0, UnitType::PikeShot, 23, 14.5, 180);
    const int bHorse = p.add(0, UnitType::Horse, 20, 12, 90);
    TvbdEngine e(*rules);
    auto pl = e.chargePlan(p.s, fPike, target);
    QVERIFY(pl);
    QCOMPARE(pl->startZone, Zone::Front);
    QCOMPARE(pl->contactZone, Zone::Front);
    pl = e.chargePlan(p.s, fHorse, target);
    QVERIFY(pl);
    QCOMPARE(pl->startZone, Zone::FrontFlank);
    QVERIFY(pl->contactZone == Zone::FrontFlank || pl->contactZone == Zone::Front);
    pl = e.chargePlan(p.s, bPike, target);
    QVERIFY(pl);
    QCOMPARE(pl->startZone, Zone::BehindFlank);
    QCOMPARE(pl->contactZone, Zone::BehindFlank);
    pl = e.chargePlan(p.s, bHorse, target);
    QVERIFY(pl);
    QCOMPARE(pl->startZone, Zone::Rear);
    QCOMPARE(pl->contactZone, Zone::Rear);
}

// 14.1, 14.4: a charge plan is remembered by what it reads (the stands and terrain about the charger): a
// friend moving into the charge's path, a piece of impassable terrain laid across it, or the friend routing,
// each changes the answer at once; the friend moving off elsewhere gives the first answer again.
void TestTvbd::chargePlanFollowsTheTable() {
    Pos p(*rules);
    const int charger = p.add(0, UnitType::PikeShot, 20, 18, 270); // y 17.5..18.5, facing down
    const int target = p.add(1, UnitType::PikeShot, 20, 15, 90);   // y 14.5..15.5
    const int friendly = p.add(0, UnitType::PikeShot, 40, 27, 270);
    TvbdEngine e(*rules);
    const auto clear = e.chargePlan(p.s, charger, target);
    QVERIFY(clear);
    QCOMPARE(clear->wheel, 0.0);
    QVERIFY(std::abs(clear->dist - 2) < 1e-6);
    auto same = [&](const std::optional<ChargePlan>& pl) {
        return pl && pl->wheel == clear->wheel && pl->dist == clear->dist &&
               pl->contactZone == clear->contactZone;
    };
    p.s.units[friendly].pose.c = {20, 16.6}; // across the path (12.1.12: friends block a charge)
    QVERIFY(!same(e.chargePlan(p.s, charger, target)));
    p.s.units[friendly].pose.c = {5, 5}; // elsewhere (not where it stood at first)
    QVERIFY(same(e.chargePlan(p.s, charger, target)));
    p.s.terrain.clear();
    p.terrain(QStringLiteral("marsh"), rectangle({20, 16.6}, 6, 0.6, 0)); // 8.2 impassable, across the path
    QVERIFY(!same(e.chargePlan(p.s, charger, target)));
    p.s.terrain.clear();
    QVERIFY(same(e.chargePlan(p.s, charger, target)));
    p.s.units[friendly].pose.c = {20, 16.6};
    QVERIFY(!same(e.chargePlan(p.s, charger, target)));
    p.s.units[friendly].status = UnitStatus::Routed; // gone from the table
    QVERIFY(same(e.chargePlan(p.s, charger, target)));
    // The charge options read the same plans.
    const auto options = e.chargeOptions(p.s, charger);
    QCOMPARE(options.size(), 1);
    QCOMPARE(options[0].first, target);
}

// T11, 14.5.2-14.5.5 (Fig. 20).
void TestTvbd::t11_meleeDicePrimarySecondary() {
    Pos p(*rules);
    const int dutch = p.add(1, UnitType::PikeShot, 20, 15, 90);
    const int sPike = p.add(0, UnitType::PikeShot, 20, 16, 270, 3);
    p.add(0, UnitType::PikeShot, 20, 18.5, 270); // support to its rear
    const int sHorse =
        p.add(0, UnitType::Horse, 21.5, 14.5, 180, 1); // side contacts flush with the front edge
    const int sShot = p.add(0, UnitType::Shot, 18.5, 14.5, 0);
    p.s.units[sPike].charged = p.s.units[sHorse].charged = p.s.units[sShot].charged = true;
    TvbdEngine e(*rules);
    MeleeDice d = e.meleeDice(p.s, sPike, dutch, true);
    QCOMPARE(d.dice, 3);
    QCOMPARE(d.toHit, 5);
    d = e.meleeDice(p.s, sHorse, dutch, false);
    QCOMPARE(d.dice, 1);
    QCOMPARE(d.toHit, 4);
    d = e.meleeDice(p.s, sShot, dutch, false);
    QCOMPARE(d.dice, 1);
    QCOMPARE(d.toHit, 6);
    d = e.meleeDice(p.s, dutch, sPike, true);
    QCOMPARE(d.dice, 1);
    QCOMPARE(d.toHit, 5);
    // the Dutch need 5+ against every Spanish unit: they may put a hit on any of them
    QCOMPARE(e.meleeToHit(p.s, dutch, sHorse), 5);
    QCOMPARE(e.meleeToHit(p.s, dutch, sShot), 5);
}

// T12, 14.5.3 (Fig. 21): 2d6 at 4+ against 3d6 at 5+, odds even.
void TestTvbd::t12_meleeOddsEven() {
    Pos p(*rules);
    const int bern = p.add(1, UnitType::Horse, 20, 15, 90);
    p.add(1, UnitType::Horse, 20, 13, 90); // support
    const int imp = p.add(0, UnitType::Horse, 21.5, 16.3, 180, 2);
    p.add(0, UnitType::Horse, 23.5, 16.3, 180); // support
    p.s.units[imp].charged = true;
    TvbdEngine e(*rules);
    QCOMPARE(classify(p.s.units[bern].pose, p.s.units[imp].pose), Zone::FrontFlank);
    QCOMPARE(classify(p.s.units[imp].pose, p.s.units[bern].pose), Zone::Front);
    const MeleeDice a = e.meleeDice(p.s, imp, bern, true), b = e.meleeDice(p.s, bern, imp, true);
    QCOMPARE(a.dice, 2);
    QCOMPARE(a.toHit, 4);
    QCOMPARE(b.dice, 3);
    QCOMPARE(b.toHit, 5);
    QCOMPARE(a.dice * (7 - a.toHit), b.dice * (7 - b.toHit)); // expected hits 1.0 each
}

// T13, 14.5.3 (Fig. 22): the same to-hit against every enemy in contact lets the owner allocate hits.
void TestTvbd::t13_sameToHitAllowsSplit() {
    Pos p(*rules);
    const int french = p.add(1, UnitType::PikeShot, 20, 15, 90, -1, Quality::Superior);
    const int spanish = p.add(0, UnitType::PikeShot, 19.2, 16, 270);
    const int imp = p.add(0, UnitType::PikeShot, 21.2, 16, 270);
    p.add(0, UnitType::PikeShot, 19.2, 18.5, 270);
    p.add(0, UnitType::PikeShot, 21.2, 18.5, 270);
    p.add(1, UnitType::PikeShot, 20, 12.5, 90);
    TvbdEngine e(*rules);
    QCOMPARE(e.meleeToHit(p.s, french, spanish), 5);
    QCOMPARE(e.meleeToHit(p.s, french, imp), 5);
    QCOMPARE(e.meleeDice(p.s, spanish, french, true).dice, 4);
    QCOMPARE(e.meleeDice(p.s, imp, french, true).dice, 4);
    // The French (resolve 5 superior, as the figure's four dice need resolve 4: use resolve 4) split 2 hits
    // so that the weaker enemy routs first.
    p.s.units[french].resolve = 4;
    p.s.units[spanish].resolve = 1;
    // rolls in unit order: French 4d6, Spanish (primary) 4d6, Imperialist (secondary) 1d6
    p.s.scripted = {5, 6, 1, 1, 1, 1, 1, 1, 1};
    e.resolveMelee(p.s);
    QCOMPARE(p.s.units[spanish].status, UnitStatus::Routed);
    QCOMPARE(p.s.units[imp].resolve, 3); // the second hit went on the Imperialists
}

// T14, 14.5.4 (Fig. 23): the Horse is the better primary fighter.
void TestTvbd::t14_choosePrimaryFighter() {
    Pos p(*rules);
    const int saxon = p.add(1, UnitType::PikeShot, 20, 15, 90);
    const int bPike = p.add(0, UnitType::PikeShot, 20, 16, 270);
    p.add(0, UnitType::PikeShot, 20, 18.5, 270);
    const int bHorse = p.add(0, UnitType::Horse, 21.5, 14.5, 180);
    p.add(0, UnitType::Horse, 24, 14.5, 180);
    p.s.units[bPike].charged = p.s.units[bHorse].charged = true;
    TvbdEngine e(*rules);
    MeleeDice d = e.meleeDice(p.s, bHorse, saxon, true);
    QCOMPARE(d.dice, 3);
    QCOMPARE(d.toHit, 4);
    d = e.meleeDice(p.s, bPike, saxon, true); // the alternative
    QCOMPARE(d.dice, 4);
    QCOMPARE(d.toHit, 5);
    d = e.meleeDice(p.s, bPike, saxon, false);
    QCOMPARE(d.dice, 1);
    d = e.meleeDice(p.s, saxon, bPike, true);
    QCOMPARE(d.dice, 1);
    QCOMPARE(d.toHit, 5);
    p.s.scripted = QList<int>(20, 1);
    e.resolveMelee(p.s);
    QVERIFY(
        logHas(p.s, QStringLiteral("%1 primary on %2: 3d6").arg(p.s.units[bHorse].id, p.s.units[saxon].id)));
    QVERIFY2(
        logHas(p.s, QStringLiteral("%1 secondary on %2: 1d6").arg(p.s.units[bPike].id, p.s.units[saxon].id)),
        qPrintable(p.s.log.join(QLatin1Char('\n'))));
}

// T15, 14.5.2 (Fig. 24): an enemy to-rear leaves a unit no melee dice.
void TestTvbd::t15_enemyToRearZeroDice() {
    Pos p(*rules);
    const int imp = p.add(1, UnitType::PikeShot, 20, 15, 90);
    const int fPike = p.add(0, UnitType::PikeShot, 20, 16, 270);
    p.add(0, UnitType::PikeShot, 20, 18.5, 270);
    const int fHorse = p.add(0, UnitType::Horse, 20, 14, 90);
    p.add(0, UnitType::Horse, 20, 11.5, 90);
    p.s.units[fPike].charged = p.s.units[fHorse].charged = true;
    TvbdEngine e(*rules);
    QCOMPARE(classify(p.s.units[imp].pose, p.s.units[fHorse].pose), Zone::Rear);
    QCOMPARE(e.meleeDice(p.s, imp, fPike, true).dice, 0);
    const MeleeDice h = e.meleeDice(p.s, fHorse, imp, true);
    QCOMPARE(h.dice, 3);
    QCOMPARE(h.toHit, 4);
    const MeleeDice k = e.meleeDice(p.s, fPike, imp, false);
    QCOMPARE(k.dice, 1);
    QCOMPARE(k.toHit, 5);
}

// T16, 14.5.3 (Fig. 25): different to-hit numbers: pick one target; all hits go on it.
void TestTvbd::t16_chooseTargetByToHit() {
    Pos p(*rules);
    const int horse = p.add(0, UnitType::Horse, 20.25, 16, 270);
    const int dPike = p.add(1, UnitType::PikeShot, 19, 15, 90);
    const int dShot = p.add(1, UnitType::Shot, 21.5, 15, 90);
    p.add(0, UnitType::Horse, 20.25, 18.5, 270); // support
    p.s.units[horse].charged = true;
    TvbdEngine e(*rules);
    QCOMPARE(e.meleeToHit(p.s, horse, dPike), 5);
    QCOMPARE(e.meleeToHit(p.s, horse, dShot), 4);
    QCOMPARE(e.meleeDice(p.s, horse, dShot, true).dice, 3);
    // Horse 3d6 [4,4,6] all on the Shot; the Dutch Pike+Shot (primary, unsupported 3d6) and Shot (1d6) miss.
    p.s.scripted = {4, 4, 6, 1, 1, 1, 1};
    e.resolveMelee(p.s);
    QCOMPARE(p.s.units[dShot].resolve, 1);
    QCOMPARE(p.s.units[dPike].resolve, 4);
    QCOMPARE(p.s.units[horse].resolve, 3);
    QVERIFY(p.s.scripted.isEmpty());
    // 14.6: the Shot lost with the enemy only to its front: it rallied back 1 TUM.
    QVERIFY(qAbs(p.s.units[dShot].pose.c.y - 14.0) < 0.06);
}

// T17, 14.6 (Fig. 27 A): a rally back stops where a friend that cannot be passed blocks it.
void TestTvbd::t17_rallyBackBlockedByFriend() {
    Pos p(*rules);
    const int french = p.add(0, UnitType::PikeShot, 20, 15, 90);
    p.add(1, UnitType::PikeShot, 20, 16, 270);
    p.add(0, UnitType::PikeShot, 20, 13.9, 90); // the Berhardines, 0.1 behind
    TvbdEngine e(*rules);
    e.rallyBack(p.s, french);
    const double moved = 15 - p.s.units[french].pose.c.y;
    QVERIFY2(moved > 0.04 && moved < 0.11, qPrintable(QString::number(moved)));
}

// T18, 14.6 (Fig. 27 B): Horse rally back 3 TUM through friendly Horse and end clear beyond them.
void TestTvbd::t18_rallyBackThroughFriendlyHorse() {
    Pos p(*rules);
    const int bern = p.add(0, UnitType::Horse, 20, 15, 90);
    p.add(1, UnitType::Horse, 20, 16, 270);
    const int friendH = p.add(0, UnitType::Horse, 20, 13.5, 90);
    TvbdEngine e(*rules);
    e.rallyBack(p.s, bern);
    QVERIFY(qAbs(p.s.units[bern].pose.c.y - 12.0) < 0.06);
    QVERIFY(!overlaps(p.s.units[bern].pose.polygon(), p.s.units[friendH].pose.polygon()));
    QVERIFY(p.s.units[bern].movedMarker);
}

// T19, 14.5.8: Horse (resolve 3) charging Pike+Shot on a hill crest rolls 2d6, at 5+ to the front in the
// open.
void TestTvbd::t19_chargingUphill() {
    Pos p(*rules);
    const int pike = p.add(1, UnitType::PikeShot, 20, 18, 270);
    const int horse = p.add(0, UnitType::Horse, 20, 17, 90);
    p.add(0, UnitType::Horse, 20, 14, 90);
    p.s.units[horse].charged = true;
    TvbdEngine e(*rules);
    QCOMPARE(e.meleeDice(p.s, horse, pike, true).dice, 3);
    p.terrain(QStringLiteral("gentleHill"), ellipse({20, 19}, 5, 3.5, 0));
    QVERIFY(e.height(p.s, p.s.units[pike].pose.c) > e.height(p.s, p.s.units[horse].pose.c));
    const MeleeDice d = e.meleeDice(p.s, horse, pike, true);
    QCOMPARE(d.dice, 2);
    QCOMPARE(d.toHit, 5);
}

// T21, 15.6: army breakpoint = a third of the units, rounded up.
void TestTvbd::t21_armyBreakpoints() {
    const QList<std::pair<int, int>> table{{10, 4}, {12, 4}, {13, 5}, {24, 8}, {25, 9}, {40, 14}, {42, 14}};
    for (const auto& [units, bp] : table)
        QCOMPARE(TvbdEngine::armyBreakpoint(units), bp);
    // Swedes with 25 units fight on at 8 lost and break at 9; Imperialists with 24 break at 8.
    TvbdEngine e(*rules);
    Pos p(*rules);
    p.s.originalUnits[0] = 25;
    p.s.originalUnits[1] = 24;
    p.s.turn = 3;
    p.s.lost[0] = 8;
    p.s.lost[1] = 7;
    e.morale(p.s);
    QVERIFY(!p.s.over());
    p.s.lost[0] = 9;
    e.morale(p.s);
    QVERIFY(p.s.over());
    QCOMPARE(p.s.winner, 1);
    Pos q(*rules);
    q.s.originalUnits[0] = 25;
    q.s.originalUnits[1] = 24;
    q.s.lost[0] = 9;
    q.s.lost[1] = 8;
    e.morale(q.s);
    QCOMPARE(q.s.winner, 2); // both broke: a draw
}

// T22, 16.1 variable army morale: 1d6 + losses against half the army.
void TestTvbd::t22_variableArmyMorale() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    p.s.variableArmyMorale = true;
    p.s.originalUnits[0] = 25;
    p.s.originalUnits[1] = 25;
    p.s.turn = 4;
    p.s.lost[0] = 7;
    p.s.lost[1] = 3;
    p.s.scripted = {3};
    p.s.sideName[0] = QStringLiteral("Swedes"); // the log's possessive of a plural name (sidewords.h)
    e.morale(p.s);
    QVERIFY(!p.s.over()); // 10 < 12.5
    QVERIFY2(logHas(p.s, QStringLiteral("16.1 Swedes' army morale: 1d6 3 + 7 lost vs half of 25: fights on")),
             qPrintable(p.s.log.join(QLatin1Char('\n'))));
    p.s.turn = 5;
    p.s.lost[0] = 10;
    p.s.scripted = {4};
    p.s.sideName[0] = QStringLiteral("Spain"); // and of a singular one
    e.morale(p.s);
    QVERIFY(p.s.over()); // 14 >= 12.5
    QCOMPARE(p.s.winner, 1);
    QVERIFY2(logHas(p.s, QStringLiteral("16.1 Spain's army morale: 1d6 4 + 10 lost vs half of 25: flees")),
             qPrintable(p.s.log.join(QLatin1Char('\n'))));
}

// T23, 16.10 command breakpoints (the table is followed for 5 commands: docs/tvbd.md).
void TestTvbd::t23_commandBreakpoints() {
    const int cmd[] = {0, 1, 1, 2, 2, 3, 3, 4, 4};
    for (int n = 1; n <= 8; ++n)
        QCOMPARE(TvbdEngine::commandBreakpoint(n), cmd[n]);
    const int army[] = {0, 1, 2, 2, 3, 3, 4};
    for (int n = 1; n <= 6; ++n)
        QCOMPARE(TvbdEngine::commandArmyBreakpoint(n), army[n]);
}

// 16.10 command morale: a command of 5 breaks at 3 lost, its remaining units rout; 2 of 3 commands broken
// break the army.
void TestTvbd::r16_10_commandMorale() {
    Pos p(*rules);
    p.s.commandMorale = true;
    p.s.originalUnits[1] = 10;
    p.s.commands[1].initialUnits = 0;
    Command c2 = p.s.commands[0];
    c2.id = c2.name = QStringLiteral("A2");
    Command c3 = c2;
    c3.id = c3.name = QStringLiteral("A3");
    p.s.commands << c2 << c3;
    for (int k = 0; k < 5; ++k)
        p.add(0, UnitType::PikeShot, 3 + 2.5 * k, 5, 90);
    for (int k = 0; k < 2; ++k) {
        const int u = p.add(0, UnitType::Horse, 20 + 2.5 * k, 5, 90);
        p.s.units[u].command = 2;
        const int v = p.add(0, UnitType::Horse, 30 + 2.5 * k, 5, 90);
        p.s.units[v].command = 3;
    }
    p.add(1, UnitType::PikeShot, 20, 25, 270);
    p.s.commands[0].initialUnits = 5; // Pos::add counted every unit into command 0
    p.s.commands[2].initialUnits = p.s.commands[3].initialUnits = 2;
    TvbdEngine e(*rules);
    e.hit(p.s, 0, 4, true, true, QStringLiteral("t"));
    e.hit(p.s, 1, 4, true, true, QStringLiteral("t"));
    p.s.routsThisTurn.clear();
    e.morale(p.s);
    QVERIFY(!p.s.commands[0].broken); // 2 of 5 lost: breakpoint 3
    e.hit(p.s, 2, 4, true, true, QStringLiteral("t"));
    p.s.routsThisTurn.clear();
    e.morale(p.s);
    QVERIFY(p.s.commands[0].broken);
    QCOMPARE(p.s.units[3].status, UnitStatus::Routed);
    QCOMPARE(p.s.units[4].status, UnitStatus::Routed);
    QVERIFY(!p.s.over());                              // 1 of 3 commands broken; the army breaks at 2
    e.hit(p.s, 5, 3, true, true, QStringLiteral("t")); // command A2 (2 units) breaks at 1 lost
    p.s.routsThisTurn.clear();
    e.morale(p.s);
    QVERIFY(p.s.over());
    QCOMPARE(p.s.winner, 1);
}

// T24, 16.3 coins and quality.
void TestTvbd::t24_coinsAndQuality() {
    QCOMPARE(rules->coins(UnitType::Shot, Quality::Ordinary, false), 4);
    QCOMPARE(rules->startResolve(UnitType::Shot, Quality::Ordinary, false), 4);
    QCOMPARE(rules->coins(UnitType::PikeShot, Quality::Superior, false), 5);
    QCOMPARE(rules->startResolve(UnitType::PikeShot, Quality::Superior, false), 5);
    QCOMPARE(rules->coins(UnitType::Horse, Quality::Inferior, false), 3);
    QCOMPARE(rules->startResolve(UnitType::Horse, Quality::Inferior, false), 2);
    QCOMPARE(rules->startResolve(UnitType::Rabble, Quality::Ordinary, false), 2);
    QCOMPARE(rules->startResolve(UnitType::Cannon, Quality::Ordinary, false), 2);
    QCOMPARE(rules->startResolve(UnitType::Commander, Quality::Superior, false), 1);
    QCOMPARE(60 / rules->coins(UnitType::Horse, Quality::Superior, false), 12);
    QCOMPARE(60 / rules->coins(UnitType::Horse, Quality::Ordinary, false), 15);
    QCOMPARE(60 / rules->coins(UnitType::Horse, Quality::Inferior, false), 20);
    QCOMPARE(60 / rules->coins(UnitType::Rabble, Quality::Raw, false), 30);
}

// T25, 16.2, 16.3.3: Large Pike+Shot dice = min(resolve, cap) to the front; 2d6 to the flank while resolve
// >= 2.
void TestTvbd::t25_largePikeShotDice() {
    TvbdEngine e(*rules);
    const int res[] = {8, 5, 3, 1}, front[] = {4, 4, 3, 1}, flank[] = {2, 2, 2, 1};
    for (int i = 0; i < 4; ++i) {
        Pos p(*rules);
        const int big = p.add(0, UnitType::PikeShot, 20, 15, 90, res[i], Quality::Ordinary, true);
        p.add(0, UnitType::PikeShot, 20, 12, 90); // support
        const int ahead = p.add(1, UnitType::PikeShot, 20, 18, 270);
        const int aside = p.add(1, UnitType::PikeShot, 24, 17, 270);
        QCOMPARE(p.s.units[big].startResolve, 8);
        QCOMPARE(e.shootingDice(p.s, big, ahead, true), front[i]);
        QCOMPARE(e.shootingDice(p.s, big, aside, true), flank[i]);
        QCOMPARE(p.s.originalUnits[0], 3); // counts as 2 units
    }
    QCOMPARE(rules->startResolve(UnitType::PikeShot, Quality::Superior, true), 10);
    QCOMPARE(rules->coins(UnitType::PikeShot, Quality::Inferior, true), 6);
}

// T26, 7.3 (Fig. 6): the example armies are legal, 24 units each, breakpoint 8.
void TestTvbd::t26_exampleArmies() {
    auto army = [&](const QList<QList<UnitType>>& commands) {
        Pos p(*rules);
        p.s.commands.clear();
        double x = 1;
        for (const auto& c : commands) {
            Command cmd;
            cmd.id = QStringLiteral("c%1").arg(p.s.commands.size());
            cmd.side = 0;
            p.s.commands << cmd;
            for (UnitType t : c) {
                const int u = p.add(0, t, x, 5, 90);
                p.s.units[u].command = int(p.s.commands.size()) - 1;
                --p.s.commands[0].initialUnits;
                ++p.s.commands.last().initialUnits;
                ++p.s.commands[0].initialUnits;
                x += 1.8;
            }
        }
        // Pos::add counted into command 0; recount per command
        for (Command& c : p.s.commands)
            c.initialUnits = 0;
        for (const Unit& u : p.s.units)
            ++p.s.commands[u.command].initialUnits;
        return p.s;
    };
    using T = UnitType;
    // (a) cavalry-heavy: 9,000 foot / 1,500 = 6 Pike+Shot; 9,000 horse / 750 = 12 Horse; 24 guns / 12 = 2
    const BattleState a =
        army({{T::Commander, T::Horse, T::Horse, T::Horse, T::Horse, T::Horse, T::Horse, T::Cannon},
              {T::Commander, T::PikeShot, T::PikeShot, T::PikeShot, T::PikeShot, T::PikeShot},
              {T::Commander, T::Horse, T::Horse, T::Horse, T::Horse, T::Cannon},
              {T::Commander, T::Horse, T::Horse, T::PikeShot}});
    QCOMPARE(9000 / 1500, 6);
    QCOMPARE(9000 / 750, 12);
    QCOMPARE(a.originalUnits[0], 24);
    QCOMPARE(TvbdEngine::armyBreakpoint(a.originalUnits[0]), 8);
    QVERIFY2(armyListProblems(a, 0).isEmpty(), qPrintable(armyListProblems(a, 0).join(QLatin1Char(';'))));
    // (b) infantry-heavy: 11 foot units x 1,000 + 1 Dragoons x 500 = 11,500 foot; 3,000 horse / 500 = 6
    const BattleState b =
        army({{T::Commander, T::Horse, T::Horse, T::Horse, T::Horse, T::Cannon},
              {T::Commander, T::PikeShot, T::PikeShot, T::PikeShot, T::PikeShot, T::PikeShot, T::PikeShot},
              {T::Commander, T::Horse, T::Horse, T::Shot, T::Dragoons, T::Cannon},
              {T::Commander, T::PikeShot, T::PikeShot, T::PikeShot, T::PikeShot}});
    QCOMPARE(11 * 1000 + 500, 11500);
    QCOMPARE(b.originalUnits[0], 24);
    QVERIFY(armyListProblems(b, 0).isEmpty());
    // Illegal: five Cannon, three Shot, a command of 9.
    const BattleState bad = army(
        {{T::Commander, T::Cannon, T::Cannon, T::Cannon, T::Cannon, T::Cannon, T::Shot, T::Shot, T::Shot}});
    const QStringList probs = armyListProblems(bad, 0);
    QCOMPARE(probs.size(), 3);
}

// T28, 12.1.2 and 12.2.15: the engine's probabilities (statistical, 20,000 trials each, 4 sigma).
void TestTvbd::t28_probabilities() {
    TvbdEngine e(*rules);
    auto rate = [&](UnitType t, int resolve) {
        Pos p(*rules);
        const int u = p.add(0, t, 10, 10, 90, resolve);
        p.s.rng.reseed(7);
        int ok = 0;
        const int n = 20000;
        for (int i = 0; i < n; ++i) {
            ok += e.commandCheck(p.s, u) ? 1 : 0;
            p.s.log.clear();
        }
        return double(ok) / n;
    };
    auto near = [](double got, double want) {
        return qAbs(got - want) < 4 * std::sqrt(want * (1 - want) / 20000);
    };
    QVERIFY(near(rate(UnitType::PikeShot, 4), 0.5177));
    QVERIFY(near(rate(UnitType::LightHorse, 3), 0.875));
    for (bool routed : {false, true}) {
        int lost = 0;
        const int n = 20000;
        Pos p(*rules);
        const int horse = p.add(1, UnitType::Horse, 10, 10, 90);
        const int c = p.add(1, UnitType::Commander, 10, 10, 90);
        p.s.rng.reseed(11);
        for (int i = 0; i < n; ++i) {
            BattleState s = p.s;
            s.units[c].attachedTo = horse;
            e.commanderCasualtyCheck(s, c, routed, 0);
            lost += s.units[c].status == UnitStatus::Casualty ? 1 : 0;
            p.s.rng = s.rng;
        }
        QVERIFY(near(double(lost) / n, routed ? 2.0 / 9 : 1.0 / 9));
    }
}

// T28, 16.10.3: a pursuit check of 3d6 holds (any 6) with probability .4213.
void TestTvbd::t28_pursuitProbability() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    p.s.rng.reseed(13);
    const int n = 20000;
    int held = 0;
    for (int i = 0; i < n; ++i) {
        held += e.pursuitCheck(p.s, 3, QStringLiteral("t")) ? 1 : 0;
        p.s.log.clear();
    }
    const double want = 0.4213;
    QVERIFY2(qAbs(double(held) / n - want) < 4 * std::sqrt(want * (1 - want) / n),
             qPrintable(QString::number(double(held) / n)));
    QVERIFY(!e.pursuitCheck(p.s, 0, QStringLiteral("t"))); // no dice: fails automatically
}

// T20, 16.5.4 / 16.5.5: a Pike+Shot of resolve 4 shooting at Cannon in a fortification rolls 3d6; a
// supported Pike+Shot of resolve 2 charging across a fortification rolls 2d6 hitting only on 6; infantry
// in a fortification is always supported.
void TestTvbd::t20_fieldFortifications() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    const int gun = p.add(1, UnitType::Cannon, 10, 20, 270);
    const int shooter = p.add(0, UnitType::PikeShot, 10, 15, 90, 4);
    const int garrison = p.add(1, UnitType::PikeShot, 30, 20, 270);
    const int attacker = p.add(0, UnitType::PikeShot, 30, 19, 90, 2);
    p.add(0, UnitType::PikeShot, 30, 16.5, 90); // the attacker's support
    p.s.units[attacker].charged = true;
    const BattleState open = p.s;
    QCOMPARE(e.shootingDice(open, shooter, gun, true), 4);
    QCOMPARE(e.meleeDice(open, attacker, garrison, true).toHit, 5);
    QVERIFY(!e.supported(open, garrison));
    // sections 2 TUM wide laid over the garrisons' front edges
    p.terrain(QStringLiteral("fortification"), rectangle({10, 19.65}, 2, 0.3, 90));
    p.terrain(QStringLiteral("fortification"), rectangle({30, 19.65}, 2, 0.3, 90));
    QVERIFY(e.garrison(p.s, gun));
    QVERIFY(e.garrison(p.s, garrison));
    QVERIFY(!e.garrison(p.s, shooter));
    QVERIFY(!e.garrison(p.s, attacker)); // touching the section from outside is not garrisoning it
    QCOMPARE(e.shootingDice(p.s, shooter, gun, true), 3);
    const MeleeDice d = e.meleeDice(p.s, attacker, garrison, true);
    QCOMPARE(d.dice, 2);
    QCOMPARE(d.toHit, 6);
    QVERIFY(e.supported(p.s, garrison));
    // the garrison itself does not attack across its own fortification
    QCOMPARE(e.meleeToHit(p.s, garrison, attacker), 5);
    // fire that does not cross the section (from behind) gets no cover
    const int behind = p.add(0, UnitType::PikeShot, 10, 25, 270, 4);
    QCOMPARE(e.shootingDice(p.s, behind, gun, true), 4);
}

// 16.10.3 cavalry pursuit: a command within 8 TUM of an enemy command that breaks tests; a failed Horse
// check sends its Commander, Horse, Light Horse and Dragoons off the table (not lost); a passed one is
// followed by a Light Horse check (always impetuous).
void TestTvbd::r16_10_3_cavalryPursuit() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    p.s.commandMorale = p.s.cavalryPursuit = true;
    Command a2 = p.s.commands[0];
    a2.id = a2.name = QStringLiteral("A2");
    p.s.commands << a2;
    for (int k = 0; k < 4; ++k)
        p.add(0, UnitType::PikeShot, 10 + 2.5 * k, 10, 90);
    const int far = p.add(0, UnitType::PikeShot, 22, 14, 90);
    p.s.units[far].command = 2;
    p.s.commands[0].initialUnits = 4;
    p.s.commands[2].initialUnits = 1;
    const int cmdr = p.add(1, UnitType::Commander, 14, 16, 270);
    const int horse = p.add(1, UnitType::Horse, 12, 14, 270);
    const int light = p.add(1, UnitType::LightHorse, 16, 14, 270);
    QCOMPARE(e.pursuitDice(p.s, 1, false), 3);
    QCOMPARE(e.pursuitDice(p.s, 1, true), 2); // Light Horse are impetuous
    p.s.impetuous[1] = true;
    QCOMPARE(e.pursuitDice(p.s, 1, false), 2);
    p.s.impetuous[1] = false;
    e.hit(p.s, 0, 4, true, true, QStringLiteral("t"));
    e.hit(p.s, 1, 4, true, true, QStringLiteral("t"));

    BattleState failed = p.s;
    failed.scripted = {1, 2, 3}; // Horse check: no 6
    e.morale(failed);
    QVERIFY(failed.commands[0].broken);
    QVERIFY(logHas(failed, QStringLiteral("16.10.3 pursuit check B Horse: 3d6 [1,2,3]")));
    for (int u : {cmdr, horse, light})
        QCOMPARE(failed.units[u].status, UnitStatus::PursuedOff);
    QCOMPARE(failed.lost[1], 0);
    QVERIFY(!failed.over());

    BattleState held = p.s;
    held.scripted = {6, 1, 1, 2, 3}; // Horse hold; Light Horse (2d6) fail
    e.morale(held);
    QCOMPARE(held.units[horse].status, UnitStatus::OnTable);
    QCOMPARE(held.units[cmdr].status, UnitStatus::OnTable);
    QCOMPARE(held.units[light].status, UnitStatus::PursuedOff);
    QVERIFY(logHas(held, QStringLiteral("Light Horse: 2d6 [2,3]")));

    // without the option nobody tests
    BattleState off = p.s;
    off.cavalryPursuit = false;
    e.morale(off);
    QVERIFY(!logHas(off, QStringLiteral("16.10.3")));
    QCOMPARE(off.units[horse].status, UnitStatus::OnTable);
}

// 12.1.13: a unit locked with an enemy behind-flank may turn to face it, if there is space, staying in
// contact with every enemy it touched; it then fights with its full dice.
void TestTvbd::r12_1_13_turnToFace() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    const int a = p.add(0, UnitType::PikeShot, 20, 15, 90);
    const int b = p.add(1, UnitType::Horse, 21.5, 14.5, 180); // against A's right side, behind-flank
    QCOMPARE(e.zone(p.s, a, b), Zone::BehindFlank);
    QCOMPARE(e.meleeDice(p.s, a, b, true).dice, 1);
    const MoveSpec face = mv(MoveKind::Face, 0, 0, b);
    QVERIFY(e.candidateMoves(p.s, a).contains(face));
    QString why;
    const auto to = e.checkMove(p.s, a, face, &why);
    QVERIFY2(to, qPrintable(why));
    QCOMPARE(to->facing, 0.0);
    BattleState faced = p.s;
    faced.units[a].pose = *to;
    QCOMPARE(e.zone(faced, a, b), Zone::Front);
    QVERIFY(e.contacts(faced, a).contains(b));
    QVERIFY(e.meleeDice(faced, a, b, true).dice > 1);
    TAction act;
    QVERIFY(parseAction(p.s, QStringLiteral("move A0 face B1"), &act, &why));
    QCOMPARE(act.move, face);
    QCOMPARE(actionText(p.s, act), QStringLiteral("move A0 face B1"));
    // no space: a friend where the unit would stand
    Pos q(*rules);
    const int a2 = q.add(0, UnitType::PikeShot, 20, 15, 90);
    const int b2 = q.add(1, UnitType::Horse, 21.5, 14.5, 180);
    q.add(0, UnitType::PikeShot, 20, 13.5, 90);
    QVERIFY(!e.checkMove(q.s, a2, mv(MoveKind::Face, 0, 0, b2)));
    // a unit not in contact does not turn to face
    Pos r2(*rules);
    const int a3 = r2.add(0, UnitType::PikeShot, 20, 15, 90);
    const int b3 = r2.add(1, UnitType::Horse, 25, 14.5, 180);
    QVERIFY(!e.checkMove(r2.s, a3, mv(MoveKind::Face, 0, 0, b3)));
}

// T29, 12.1.5: a 45-degree wheel of a 2-TUM-wide unit uses 1.531 TUM; 1.469 TUM straight remain of 3.
void TestTvbd::t29_wheelCost() {
    QVERIFY(qAbs(wheelCost(2, 45) - 1.531) < 0.0005);
    Pos p(*rules);
    const int u = p.add(0, UnitType::PikeShot, 20, 10, 90);
    TvbdEngine e(*rules);
    QVERIFY(e.checkMove(p.s, u, mv(MoveKind::Wheel, 45, 1.469)).has_value());
    QString why;
    QVERIFY(!e.checkMove(p.s, u, mv(MoveKind::Wheel, 45, 1.5), &why).has_value());
    QVERIFY(why.contains(QStringLiteral("12.1.3")));
    QVERIFY(!e.checkMove(p.s, u, mv(MoveKind::Wheel, 50, 0)).has_value());
    // the wheel pivots on the inside front corner
    const Pose w = wheeled(p.s.units[u].pose, 45);
    QVERIFY((w.frontLeft() - p.s.units[u].pose.frontLeft()).length() < 1e-9);
}

// 12.1.1, 12.1.2: in command within 8 TUM of the Commander; otherwise a command check before moving.
void TestTvbd::r12_1_1_inCommandAndCheck() {
    Pos p(*rules);
    const int c = p.add(0, UnitType::Commander, 10, 2, 90);
    const int nearU = p.add(0, UnitType::PikeShot, 10, 9, 90);
    const int farU = p.add(0, UnitType::PikeShot, 25, 9, 90);
    p.add(1, UnitType::PikeShot, 10, 25, 270);
    TvbdEngine e(*rules);
    QVERIFY(e.inCommand(p.s, nearU));
    QVERIFY(!e.inCommand(p.s, farU));
    QVERIFY(e.inCommand(p.s, c));
    p.s.step = Step::Move;
    p.s.phaseIndex = 1;
    p.s.stepSide = 0;
    p.s.active = 0;
    p.s.scripted = {1, 2, 3, 4}; // no 6: the check fails, the unit stays
    TAction a;
    a.kind = TAction::Move;
    a.unit = farU;
    a.move = mv(MoveKind::Straight, 0, 2);
    QVERIFY(e.apply(p.s, a));
    QCOMPARE(p.s.units[farU].pose.c.y, 9.0);
    QVERIFY(p.s.units[farU].actedThisStep);
    QVERIFY(logHas(p.s, QStringLiteral("failed")));
    a.unit = nearU;
    QVERIFY(e.apply(p.s, a));
    QCOMPARE(p.s.units[nearU].pose.c.y, 11.0);
    // with the Commander lost, every unit tests
    p.s.commands[0].commanderLost = true;
    QVERIFY(!e.inCommand(p.s, nearU));
}

// 12.1.3: any part of a move in difficult terrain caps it at 3 TUM.
void TestTvbd::r12_1_3_difficultTerrainCap() {
    Pos p(*rules);
    const int h = p.add(0, UnitType::Horse, 10, 5, 90);
    TvbdEngine e(*rules);
    QVERIFY(e.checkMove(p.s, h, mv(MoveKind::Straight, 0, 6)).has_value());
    p.terrain(QStringLiteral("woods"), ellipse({10, 10}, 2, 1.5, 0));
    QVERIFY(!e.checkMove(p.s, h, mv(MoveKind::Straight, 0, 6)).has_value());
    QVERIFY(e.checkMove(p.s, h, mv(MoveKind::Straight, 0, 3)).has_value());
    // impassable: a river
    p.terrain(QStringLiteral("river"), thickSegment({0, 3}, {45, 3}, 2.5));
    QString why;
    QVERIFY(!e.checkMove(p.s, h, mv(MoveKind::Backward, 0, 3), &why).has_value());
    QVERIFY(why.contains(QStringLiteral("impassable")));
}

// 12.1.10: a unit starting 1 TUM or more from the enemy may not end closer than 1 TUM.
void TestTvbd::r12_1_10_bufferZone() {
    Pos p(*rules);
    const int u = p.add(0, UnitType::Horse, 20, 10, 0); // facing +x, moving along the enemy
    p.add(1, UnitType::PikeShot, 23.5, 12.2, 0);
    TvbdEngine e(*rules);
    QString why;
    // ends 0.7 from the enemy: forbidden
    QVERIFY(!e.checkMove(p.s, u, mv(MoveKind::Oblique, 45, 3), &why).has_value());
    QVERIFY2(why.contains(QStringLiteral("12.1.10")) || why.contains(QStringLiteral("12.1.11")),
             qPrintable(why));
    QVERIFY(e.checkMove(p.s, u, mv(MoveKind::Straight, 0, 1)).has_value());
}

// 12.1.11: inside an enemy's zone of control only closer, directly away or back.
void TestTvbd::r12_1_11_zoneOfControl() {
    Pos p(*rules);
    p.add(1, UnitType::PikeShot, 20, 15, 270);            // ZOC: x 19..21, y 11.5..14.5
    const int u = p.add(0, UnitType::Horse, 20, 12.5, 0); // inside, side-on
    TvbdEngine e(*rules);
    QString why;
    QVERIFY(!e.checkMove(p.s, u, mv(MoveKind::Straight, 0, 4), &why).has_value()); // across the front
    QVERIFY2(why.contains(QStringLiteral("12.1.11")), qPrintable(why));
    QVERIFY(e.checkMove(p.s, u, mv(MoveKind::Backward, 0, 1)).has_value());
    // a unit outside may not cross the zone
    Pos q(*rules);
    q.add(1, UnitType::PikeShot, 20, 15, 270);
    const int v = q.add(0, UnitType::Horse, 16, 13, 0);
    QVERIFY(!e.checkMove(q.s, v, mv(MoveKind::Straight, 0, 6), &why).has_value());
    QVERIFY(why.contains(QStringLiteral("12.1.11")));
}

// 12.1.12, Table 5: Horse pass through Horse straight ahead and end clear; Pike+Shot never pass formed units.
void TestTvbd::r12_1_12_interpenetration() {
    Pos p(*rules);
    const int h = p.add(0, UnitType::Horse, 10, 5, 90);
    p.add(0, UnitType::Horse, 10, 7, 90);
    const int k = p.add(0, UnitType::PikeShot, 20, 5, 90);
    p.add(0, UnitType::PikeShot, 20, 7, 90);
    TvbdEngine e(*rules);
    QVERIFY(e.checkMove(p.s, h, mv(MoveKind::Straight, 0, 4)).has_value());
    QVERIFY(!e.checkMove(p.s, h, mv(MoveKind::Straight, 0, 2)).has_value()); // would end on top
    QVERIFY(!e.checkMove(p.s, h, mv(MoveKind::Wheel, 20, 4)).has_value() ||
            true); // after a wheel the facings differ: a pass-through is not allowed (checked below)
    QVERIFY(!e.checkMove(p.s, k, mv(MoveKind::Straight, 0, 3)).has_value());
    // anyone passes through Cannon
    Pos q(*rules);
    const int k2 = q.add(0, UnitType::PikeShot, 20, 5, 90);
    q.add(0, UnitType::Cannon, 20, 6.6, 90);
    QVERIFY(e.checkMove(q.s, k2, mv(MoveKind::Straight, 0, 3)).has_value());
    // Horse through Pike+Shot: not allowed
    Pos r2(*rules);
    const int h2 = r2.add(0, UnitType::Horse, 10, 5, 90);
    r2.add(0, UnitType::PikeShot, 10, 7, 90);
    QVERIFY(!e.checkMove(r2.s, h2, mv(MoveKind::Straight, 0, 4)).has_value());
}

// 12.1.6-12.1.8: a limbered Cannon moves and unlimbers (moved marker); unlimbered it only pivots.
void TestTvbd::r12_1_7_cannonUnlimberAndPivot() {
    Pos p(*rules);
    const int c = p.add(0, UnitType::Cannon, 10, 5, 90);
    p.s.units[c].limbered = true;
    p.add(1, UnitType::PikeShot, 10, 25, 270);
    TvbdEngine e(*rules);
    QVERIFY(e.checkMove(p.s, c, mv(MoveKind::Straight, 0, 3)).has_value());
    QVERIFY(!e.checkMove(p.s, c, mv(MoveKind::Oblique, 30, 2)).has_value()); // wheel only
    QVERIFY(!e.shootTargets(p.s, c).isEmpty()); // a target straight ahead, but (12.1.6) no shot limbered:
    p.s.step = Step::Shoot;
    p.s.stepSide = 0;
    QVERIFY(!offered(e, p.s, TAction::Shoot, c));
    p.s.step = Step::Move;
    p.s.phaseIndex = 1;
    p.s.stepSide = 0;
    p.s.commands[0].commander = p.add(0, UnitType::Commander, 10, 3, 90);
    TAction a;
    a.kind = TAction::Move;
    a.unit = c;
    a.move = mv(MoveKind::Unlimber);
    QVERIFY(e.apply(p.s, a));
    QVERIFY(!p.s.units[c].limbered);
    QVERIFY(p.s.units[c].movedMarker);
    QVERIFY(!e.checkMove(p.s, c, mv(MoveKind::Straight, 0, 1)).has_value());
    QVERIFY(e.checkMove(p.s, c, mv(MoveKind::Pivot, 120)).has_value());
    // difficult terrain is closed to limbered Cannon
    Pos q(*rules);
    const int c2 = q.add(0, UnitType::Cannon, 10, 5, 90);
    q.s.units[c2].limbered = true;
    q.terrain(QStringLiteral("woods"), ellipse({10, 8}, 2, 1.5, 0));
    QVERIFY(!e.checkMove(q.s, c2, mv(MoveKind::Straight, 0, 3)).has_value());
}

// 12.2.3: no line of sight through blocking terrain or other units; into and out of it is allowed.
void TestTvbd::r12_2_3_lineOfSight() {
    Pos p(*rules);
    const int a = p.add(0, UnitType::Cannon, 10, 5, 90);
    const int b = p.add(1, UnitType::PikeShot, 10, 20, 270);
    TvbdEngine e(*rules);
    QVERIFY(e.lineOfSight(p.s, a, b));
    p.terrain(QStringLiteral("woods"), ellipse({10, 12}, 2, 1.5, 0));
    QVERIFY(!e.lineOfSight(p.s, a, b));
    QVERIFY(!e.shootTargets(p.s, a).contains(b));
    p.s.units[b].pose.c = {10, 12.5}; // the target inside the wood: shooting into it is allowed
    QVERIFY(e.lineOfSight(p.s, a, b));
    // rough ground does not block
    Pos q(*rules);
    const int a2 = q.add(0, UnitType::Cannon, 10, 5, 90);
    const int b2 = q.add(1, UnitType::PikeShot, 10, 20, 270);
    q.terrain(QStringLiteral("rough"), ellipse({10, 12}, 2, 1.5, 0));
    QVERIFY(e.lineOfSight(q.s, a2, b2));
    // a unit in between blocks
    const int between = q.add(1, UnitType::PikeShot, 10, 12, 270);
    QVERIFY(!e.lineOfSight(q.s, a2, b2));
    // 12.2.2: a gap narrower than 2 TUM between two stands blocks; a wider one does not
    q.s.units[between].status = UnitStatus::Routed;
    const int l = q.add(0, UnitType::PikeShot, 8.6, 14, 90);
    const int r = q.add(0, UnitType::PikeShot, 11.4, 14, 90); // gap 0.8
    QVERIFY(!e.lineOfSight(q.s, a2, b2));
    q.s.units[l].pose.c.x = 7.9;
    q.s.units[r].pose.c.x = 12.1; // gap 2.2
    QVERIFY(e.lineOfSight(q.s, a2, b2));
}

// 10.3 (1.3): with no attacker named, each side rolls 1d6, re-rolling ties; the higher attacks.
void TestTvbd::r10_3_attackerRoll() {
    QFile f(kFixtures + QStringLiteral("tvbd-small-generic.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    root.remove(QStringLiteral("attacker"));
    BattleState s;
    QString error;
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    QCOMPARE(s.attacker, -1);
    s.scripted = {4, 4, 2, 5};
    TvbdEngine e(*rules);
    e.start(s);
    QCOMPARE(s.attacker, 1);
    QVERIFY(logHas(s, QStringLiteral("1.3 attacker roll")));
}

// 12.2.7: the closest valid target must be chosen; fire to-front before the flanks.
void TestTvbd::r12_2_7_closestTarget() {
    Pos p(*rules);
    const int s = p.add(0, UnitType::Shot, 20, 10, 90);
    const int nearT = p.add(1, UnitType::PikeShot, 19.5, 12, 270);
    const int farT = p.add(1, UnitType::PikeShot, 21.5, 13.5, 270);
    const int flank = p.add(1, UnitType::PikeShot, 23.5, 11.5, 270);
    TvbdEngine e(*rules);
    bool front = false;
    const QList<int> t = e.shootTargets(p.s, s, &front);
    QVERIFY(front);
    QCOMPARE(t, QList<int>{nearT});
    QVERIFY(!t.contains(farT) && !t.contains(flank));
    // out of range (4 TUM) is never a target
    p.s.units[nearT].pose.c = {19.5, 16};
    p.s.units[farT].pose.c = {21.5, 16};
    bool f2 = true;
    QCOMPARE(e.shootTargets(p.s, s, &f2), QList<int>{flank});
    QVERIFY(!f2);
}

// 14.5.10: a Cannon contacted by a charge is eliminated at once (lost, but not a rout).
void TestTvbd::r14_5_10_cannonOverrun() {
    Pos p(*rules);
    const int h = p.add(0, UnitType::Horse, 10, 10, 90);
    const int c = p.add(1, UnitType::Cannon, 10, 12.5, 270);
    p.s.units[h].chargeTarget = c;
    TvbdEngine e(*rules);
    e.resolveCharges(p.s);
    QCOMPARE(p.s.units[c].status, UnitStatus::Eliminated);
    QCOMPARE(p.s.lost[1], 1);
    QVERIFY(p.s.routsThisTurn.isEmpty()); // no erosion, no heroics
}

// 14.5.6: supported when a friend of the same arm is to-rear within 4 TUM and no enemy is.
void TestTvbd::r14_5_6_support() {
    Pos p(*rules);
    const int k = p.add(0, UnitType::PikeShot, 20, 15, 90);
    TvbdEngine e(*rules);
    QVERIFY(!e.supported(p.s, k));
    const int h = p.add(0, UnitType::Horse, 20, 12, 90);
    QVERIFY(!e.supported(p.s, k)); // cavalry do not support infantry
    p.s.units[h].type = UnitType::Shot;
    QVERIFY(e.supported(p.s, k));
    p.s.units[h].pose.c = {20, 9.9}; // 4.1 away
    QVERIFY(!e.supported(p.s, k));
    p.s.units[h].pose.c = {20, 12};
    p.add(1, UnitType::Horse, 20, 13.3, 90); // an enemy to-rear within 4
    QVERIFY(!e.supported(p.s, k));
    const int c = p.add(0, UnitType::Cannon, 5, 5, 90);
    QVERIFY(e.supported(p.s, c));
}

// 15.2: in the turn a Commander falls, each unit of the command loses 1 resolve; no rout markers.
void TestTvbd::r15_2_commanderLoss() {
    Pos p(*rules);
    const int a = p.add(0, UnitType::PikeShot, 10, 10, 90);
    const int b = p.add(0, UnitType::Horse, 14, 10, 90, 1);
    p.s.originalUnits[1] = 10;
    p.s.commands[0].commanderLost = p.s.commands[0].casualtyMarker = true;
    TvbdEngine e(*rules);
    e.morale(p.s);
    QCOMPARE(p.s.units[a].resolve, 3);
    QCOMPARE(p.s.units[a].combatLoss, 0); // not a combat loss: heroics and rally cannot restore it
    QCOMPARE(p.s.units[b].status, UnitStatus::Routed);
    QVERIFY(!p.s.commands[0].casualtyMarker);
}

// 15.3, 15.4: a rout erodes the nearest unit of its command; a unit that won against it regains 1 resolve.
void TestTvbd::r15_3_erosionAndHeroics() {
    Pos p(*rules);
    const int dead = p.add(1, UnitType::PikeShot, 20, 20, 270, 1);
    const int nearF = p.add(1, UnitType::PikeShot, 22.5, 20, 270);
    const int farF = p.add(1, UnitType::PikeShot, 30, 20, 270);
    const int shooter = p.add(0, UnitType::PikeShot, 20, 17, 90, 2);
    const int winner = p.add(0, UnitType::PikeShot, 23, 17, 90, 3);
    p.s.originalUnits[0] = p.s.originalUnits[1] = 20;
    TvbdEngine e(*rules);
    p.s.units[shooter].fought << dead;
    p.s.units[winner].fought << dead;
    p.s.units[winner].wonVs << dead;
    e.hit(p.s, dead, 1, true, true, QStringLiteral("test"));
    e.morale(p.s);
    QCOMPARE(p.s.units[nearF].resolve, 3);
    QCOMPARE(p.s.units[farF].resolve, 4);
    QCOMPARE(p.s.units[winner].resolve, 4); // the winner must get it
    QCOMPARE(p.s.units[shooter].resolve, 2);
}

// 15.5: an attached Commander restores 1 combat loss to its unit.
void TestTvbd::r15_5_commanderRally() {
    Pos p(*rules);
    const int u = p.add(0, UnitType::Horse, 10, 10, 90, 1);
    const int c = p.add(0, UnitType::Commander, 10, 10, 90);
    p.s.units[c].attachedTo = u;
    p.s.originalUnits[1] = 10;
    TvbdEngine e(*rules);
    e.morale(p.s);
    QCOMPARE(p.s.units[u].resolve, 2);
    e.morale(p.s);
    e.morale(p.s);
    QCOMPARE(p.s.units[u].resolve, 3); // never above the start
}

// 10.3, 15.6: nobody broke by the turn limit: the attacker loses.
void TestTvbd::r10_3_15_6_turnLimit() {
    Pos p(*rules);
    p.s.attacker = 1;
    p.s.originalUnits[0] = p.s.originalUnits[1] = 12;
    p.s.turn = 10;
    p.s.turnLimit = 10;
    TvbdEngine e(*rules);
    e.morale(p.s);
    QVERIFY(p.s.over());
    QCOMPARE(p.s.winner, 0);
    QVERIFY(p.s.resultReason.contains(QStringLiteral("attacker")));
}

// 11 (phase 2): initiative: the higher roll is active, the attacker wins ties.
void TestTvbd::r11_initiative() {
    BattleState s;
    QString error;
    QVERIFY(loadScenario(kFixtures + QStringLiteral("tvbd-small-generic.json"), *rules, &s, &error));
    TvbdEngine e(*rules);
    for (const auto& [a, d, active] : QList<std::tuple<int, int, int>>{{3, 3, 0}, {2, 5, 1}, {6, 1, 0}}) {
        BattleState t = s;
        t.phaseIndex = -1;
        t.step = Step::Bombard;
        t.stepSide = 0;
        // bombardment (no unlimbered Cannon in range) passes; the next dice are the initiative roll
        t.scripted = {a, d};
        TAction end;
        QVERIFY(e.apply(t, end));
        QCOMPARE(t.turn, 1);
        QCOMPARE(t.active, active);
    }
}

void TestTvbd::scenariosLoad() {
    TvbdEngine e(*rules);
    for (const char* f : {"tvbd-small-generic.json", "tvbd-white-mountain.json"}) {
        BattleState s;
        QString error;
        QVERIFY2(loadScenario(kFixtures + QLatin1String(f), *rules, &s, &error), qPrintable(error));
        for (int side = 0; side < 2; ++side)
            QVERIFY2(armyListProblems(s, side).isEmpty(),
                     qPrintable(armyListProblems(s, side).join(QLatin1Char(';'))));
        // 10.5: every Pike+Shot starts in its side's centre zone
        for (const Unit& u : s.units) {
            if (u.type == UnitType::PikeShot)
                QVERIFY2(qAbs(u.pose.c.x - s.tableW / 2) <= s.centreW / 2, qPrintable(u.id));
            QVERIFY(u.side == 0 ? u.pose.c.y <= s.tableD / 2 - 4 : u.pose.c.y >= s.tableD / 2 + 4);
        }
        e.start(s);
        QVERIFY(!e.legalActions(s).isEmpty());
    }
}

void TestTvbd::scenarioErrors() {
    QJsonObject root = QJsonDocument::fromJson([] {
                           QFile f(kFixtures + QStringLiteral("tvbd-small-generic.json"));
                           f.open(QIODevice::ReadOnly);
                           return f.readAll();
                       }())
                           .object();
    auto expect = [&](const QJsonObject& o, const QString& what) {
        BattleState s;
        QString error;
        QVERIFY(!scenarioFromJson(o, QStringLiteral("x.json"), *rules, &s, &error));
        QVERIFY2(error.startsWith(QStringLiteral("x.json: ")) && error.contains(what), qPrintable(error));
    };
    QJsonObject o = root;
    o[QStringLiteral("size")] = QStringLiteral("huge");
    expect(o, QStringLiteral("size"));
    o = root;
    o[QStringLiteral("attacker")] = 2;
    expect(o, QStringLiteral("attacker"));
    o = root;
    QJsonArray cmds = o[QStringLiteral("commands")].toArray();
    QJsonObject c0 = cmds[0].toObject();
    QJsonArray units = c0[QStringLiteral("units")].toArray();
    QJsonObject u0 = units[1].toObject();
    u0[QStringLiteral("type")] = QStringLiteral("Elephant");
    units[1] = u0;
    c0[QStringLiteral("units")] = units;
    cmds[0] = c0;
    o[QStringLiteral("commands")] = cmds;
    expect(o, QStringLiteral("commands[0].units[1].type"));
    u0[QStringLiteral("type")] = QStringLiteral("Horse");
    u0[QStringLiteral("x")] = 100;
    units[1] = u0;
    c0[QStringLiteral("units")] = units;
    cmds[0] = c0;
    o[QStringLiteral("commands")] = cmds;
    expect(o, QStringLiteral("off the"));
    BattleState s;
    QString error;
    QVERIFY(!loadScenario(QStringLiteral("/nonexistent/b.json"), *rules, &s, &error));
    QVERIFY(error.contains(QStringLiteral("/nonexistent/b.json")));
}

void TestTvbd::actionTextRoundTrip() {
    BattleState s;
    QString error;
    QVERIFY(loadScenario(kFixtures + QStringLiteral("tvbd-white-mountain.json"), *rules, &s, &error));
    TvbdEngine e(*rules);
    TacticalGame g(e, s, 5);
    wp::rules::Rng rng(5);
    int checked = 0;
    while (!g.state().over() && checked < 400) {
        for (const TAction& a : e.legalActions(g.state())) {
            TAction back;
            QVERIFY2(parseAction(g.state(), actionText(g.state(), a), &back, &error), qPrintable(error));
            QCOMPARE(actionText(g.state(), back), actionText(g.state(), a));
            ++checked;
        }
        QVERIFY(g.apply(choosePolicyAction(e, g.state(), Policy::Simple, rng), &error));
    }
    QVERIFY(checked > 50);
    TAction bad;
    QVERIFY(!parseAction(g.state(), QStringLiteral("move nobody fwd 2"), &bad, &error));
    QVERIFY(!parseAction(g.state(), QStringLiteral("fly"), &bad, &error));
}

void TestTvbd::undoUntilDice() {
    BattleState s;
    QString error;
    QVERIFY(loadScenario(kFixtures + QStringLiteral("tvbd-small-generic.json"), *rules, &s, &error));
    TvbdEngine e(*rules);
    TacticalGame g(e, s, 2);
    // play until a move step with an in-command move (no dice): it can be undone
    wp::rules::Rng rng(2);
    bool undone = false;
    for (int i = 0; i < 200 && !undone; ++i) {
        const BattleState& st = g.state();
        if (st.step == Step::Move) {
            for (const TAction& a : e.legalActions(st)) {
                if (a.kind != TAction::Move || !e.inCommand(st, a.unit))
                    continue;
                const QStringList logBefore = st.log;
                const Pose before = st.units[a.unit].pose;
                QVERIFY(g.apply(a, &error));
                if (g.state().step != Step::Move)
                    break; // the step ended (dice rolled later): not this case
                QVERIFY(g.canUndo());
                QVERIFY(g.undo());
                QCOMPARE(g.state().units[a.unit].pose.c, before.c);
                QCOMPARE(g.state().log, logBefore);
                undone = true;
                break;
            }
            if (undone)
                break;
        }
        QVERIFY(g.apply(choosePolicyAction(e, g.state(), Policy::Simple, rng), &error));
    }
    QVERIFY(undone);
    // after dice (a shot or a command check) there is no undo
    while (!g.state().over() && g.state().step != Step::Shoot)
        QVERIFY(g.apply(choosePolicyAction(e, g.state(), Policy::Random, rng), &error));
    if (!g.state().over()) {
        const QList<TAction> l = e.legalActions(g.state());
        for (const TAction& a : l)
            if (a.kind == TAction::Shoot) {
                QVERIFY(g.apply(a, &error));
                QVERIFY(!g.canUndo());
                break;
            }
    }
}

void TestTvbd::replayIsDeterministic() {
    BattleState s;
    QString error;
    QVERIFY(loadScenario(kFixtures + QStringLiteral("tvbd-small-generic.json"), *rules, &s, &error));
    TvbdEngine e(*rules);
    TacticalGame a(e, s, 9);
    const AutoResult ra = autoResolve(a, Policy::Simple, 9);
    QVERIFY(ra.winner >= 0);
    TacticalGame b(e, s, 9);
    for (const QString& t : a.actionTexts())
        QVERIFY2(b.applyText(t, &error), qPrintable(error));
    QCOMPARE(b.state().log, a.state().log);
    QCOMPARE(b.state().winner, a.state().winner);
}

// Random legal play through whole battles: no crash, a legal action at every decision, every battle ends,
// losses consistent with the units' status.
void TestTvbd::randomPlayEndsEveryBattle() {
    TvbdEngine e(*rules);
    for (const char* f : {"tvbd-small-generic.json", "tvbd-white-mountain.json"}) {
        BattleState s;
        QString error;
        QVERIFY(loadScenario(kFixtures + QLatin1String(f), *rules, &s, &error));
        for (quint64 seed = 1; seed <= 3; ++seed) {
            for (Policy pol : {Policy::Random, Policy::Simple}) {
                if (pol == Policy::Simple && seed > 1)
                    continue;
                TacticalGame g(e, s, seed);
                wp::rules::Rng rng(seed * 31);
                int n = 0;
                while (!g.state().over() && n < 20000) {
                    const QList<TAction> l = e.legalActions(g.state());
                    QVERIFY2(!l.isEmpty(), "a decision without a legal action");
                    const TAction a = pol == Policy::Random ? l[rng.below(int(l.size()))]
                                                            : choosePolicyAction(e, g.state(), pol, rng);
                    QVERIFY2(g.apply(a, &error), qPrintable(error));
                    ++n;
                }
                QVERIFY2(g.state().over(), f);
                QVERIFY(g.state().turn <= g.state().turnLimit);
                int lost[2] = {0, 0};
                for (const Unit& u : g.state().units)
                    if (u.status == UnitStatus::Routed || u.status == UnitStatus::Eliminated ||
                        u.status == UnitStatus::Casualty)
                        lost[u.side] += u.large ? 2 : 1;
                QCOMPARE(lost[0], g.state().lost[0]);
                QCOMPARE(lost[1], g.state().lost[1]);
                // no two stands on the table overlap
                const auto& us = g.state().units;
                for (qsizetype i = 0; i < us.size(); ++i)
                    for (qsizetype j = i + 1; j < us.size(); ++j)
                        if (us[i].onTable() && us[j].onTable() && us[i].type != UnitType::Commander &&
                            us[j].type != UnitType::Commander)
                            QVERIFY2(!overlaps(us[i].pose.polygon(), us[j].pose.polygon(), 0.01),
                                     qPrintable(us[i].id + QLatin1Char('/') + us[j].id));
            }
        }
    }
}

void TestTvbd::cliAutoResolve() {
    QProcess p;
    p.start(QStringLiteral(WESTPHALIA_CLI),
            {QStringLiteral("tactical"), QStringLiteral("tvbd"), QStringLiteral("--scenario"),
             kFixtures + QStringLiteral("tvbd-white-mountain.json"), QStringLiteral("--seed"),
             QStringLiteral("4"), QStringLiteral("--auto"), QStringLiteral("--log")});
    QVERIFY(p.waitForFinished(60000));
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
    QVERIFY(out.contains(QStringLiteral("result: ")));
    QVERIFY(out.contains(QStringLiteral("Turn 1. 11 initiative")));
    QVERIFY(out.contains(QStringLiteral("Bohemian Estates: lost ")));
    QVERIFY(out.contains(QStringLiteral("turns: ")));
}

void TestTvbd::cliBadInput() {
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"rules\": \"tvbd\", \"size\": \"small\", \"sides\": [1]}");
    f.close();
    QProcess p;
    p.start(QStringLiteral(WESTPHALIA_CLI),
            {QStringLiteral("tactical"), QStringLiteral("tvbd"), QStringLiteral("--scenario"), bad});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 1);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(bad) && err.contains(QStringLiteral("sides")), qPrintable(err));
    p.start(QStringLiteral(WESTPHALIA_CLI),
            {QStringLiteral("tactical"), QStringLiteral("tvbd"), QStringLiteral("--seed"),
             QStringLiteral("x"), QStringLiteral("--scenario"), bad});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 2);
}

// T27, 10.4: the attacker's changes 1-3 (remove, move, swap) must leave less difficult terrain in the centre
// zone: removing a centre wood is allowed, removing a flank wood is not; swapping a small flank wood with a
// large difficult centre hill is allowed.
void TestTvbd::t27_attackerTerrainChange() {
    BattleState s;
    QString error;
    QVERIFY2(setupState(*rules, "tvbd-white-mountain.json", true, false, 0, &s, &error), qPrintable(error));
    TvbdEngine e(*rules);
    e.start(s);
    QCOMPARE(s.step, Step::Setup);
    QCOMPARE(e.actor(s), 1); // the defender places terrain
    QVERIFY(e.prompt(s).startsWith(QStringLiteral("10.4")));
    // big table 45 x 30: the centre zone is x 10.5-34.5
    QVERIFY2(applyText(e, s, QStringLiteral("place woods medium 22.5,15 6x4 0"), &error), qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("place woods small 5,15 4x3 0"), &error), qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("place difficultHill large 22.5,25 8x6 0"), &error),
             qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error)); // roads next
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error)); // no village: no road needed
    QCOMPARE(e.actor(s), 0);                                                     // the attacker changes
    const double before = e.centreDifficultArea(s);
    // medium wood (pi 3 x 2) and large hill (pi 4 x 3) in the centre, measured on a grid
    QVERIFY(std::abs(before - kPi * (6 + 12)) < 1.0);
    BattleState t = s;
    QVERIFY2(applyText(e, t, QStringLiteral("change remove p1"), &error), qPrintable(error));
    QVERIFY(logHas(t, QStringLiteral("10.4 Catholic League and Imperialists (attacker) remove p1 (woods)")));
    t = s;
    QVERIFY(!applyText(e, t, QStringLiteral("change remove p2"), &error));
    QVERIFY2(error.contains(QStringLiteral("less difficult terrain in the centre zone")), qPrintable(error));
    t = s;
    QVERIFY(!applyText(e, t, QStringLiteral("change move p2 4,0"), &error)); // the flank wood into the centre
    t = s;
    QVERIFY(!applyText(e, t, QStringLiteral("change move p1 9,0"), &error)); // more than 8 TUM
    QVERIFY(error.contains(QStringLiteral("8 TUM")));
    t = s;
    QVERIFY2(applyText(e, t, QStringLiteral("change swap p2 p3"), &error), qPrintable(error));
    QVERIFY(logHas(
        t, QStringLiteral(
               "10.4 Catholic League and Imperialists (attacker) swap p2 (woods) and p3 (difficultHill)")));
    QVERIFY(t.step != Step::Setup); // the set-up is over: bombardment and turn 1 follow
    // the swapped features: the hill on the flank, the small wood in the centre
    QCOMPARE(t.setup.specs[2].centre, (Vec2{5, 15}));
    QCOMPARE(t.setup.specs[1].centre, (Vec2{22.5, 25}));
    // options 5-6 have no centre condition
    t = s;
    QVERIFY2(applyText(e, t, QStringLiteral("change gentle p3"), &error), qPrintable(error));
    QCOMPARE(t.setup.specs[2].type, QStringLiteral("gentleHill"));
    QVERIFY(!applyText(e, s, QStringLiteral("change difficult p3"), &error)); // it is not a gentle hill
    // the listed changes are exactly the legal ones among the candidates: every one applies
    const QList<TAction> l = e.legalActions(s);
    bool removeP1 = false, removeP2 = false;
    for (const TAction& a : l) {
        BattleState u = s;
        QVERIFY2(e.apply(u, a, &error), qPrintable(error));
        removeP1 = removeP1 || actionText(s, a) == QLatin1String("change remove p1");
        removeP2 = removeP2 || actionText(s, a) == QLatin1String("change remove p2");
    }
    QVERIFY(removeP1);
    QVERIFY(!removeP2);
}

// 10.4: the number of features by table size, the maximum of each kind, roads through villages.
void TestTvbd::r10_4_terrainLimits() {
    BattleState s;
    QString error;
    QVERIFY2(setupState(*rules, "tvbd-white-mountain.json", true, false, 1, &s, &error), qPrintable(error));
    TvbdEngine e(*rules);
    e.start(s);
    QCOMPARE(e.actor(s), 0);
    QVERIFY(!applyText(e, s, QStringLiteral("end"), &error)); // big table: at least 2
    QVERIFY(error.contains(QStringLiteral("at least 2")));
    QVERIFY2(applyText(e, s, QStringLiteral("place village medium 7.5,5 6x4 0"), &error), qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("end"), &error));
    QVERIFY2(applyText(e, s, QStringLiteral("place woods large 22.5,15 8x6 0"), &error), qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("place field large 37.5,25 8x6 0"), &error)); // one large only
    QVERIFY(error.contains(QStringLiteral("one large")));
    QVERIFY(!applyText(e, s, QStringLiteral("place field medium 22.5,15 6x4 0"), &error)); // overlaps
    QVERIFY(!applyText(e, s, QStringLiteral("place field medium 37.5,25 7x4 0"), &error)); // 8.3 size
    QVERIFY(error.contains(QStringLiteral("8.3")));
    QVERIFY(!applyText(e, s, QStringLiteral("place woods medium 44,25 6x4 0"), &error)); // off the table
    QVERIFY2(applyText(e, s, QStringLiteral("place river 0,15 45,15"), &error), qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("place river 11.25,0 11.25,30"), &error)); // one river
    QVERIFY(error.contains(QStringLiteral("river")));
    QVERIFY(!applyText(e, s, QStringLiteral("place stream 3,3 40,20"), &error)); // not edge to edge
    QVERIFY2(applyText(e, s, QStringLiteral("place stream 11.25,0 11.25,30"), &error), qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("place stream 33.75,0 33.75,30"), &error)); // two streams
    QVERIFY2(applyText(e, s, QStringLiteral("place rough medium 37.5,25 6x4 0"), &error), qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("place gentleHill small 37.5,5 4x3 0"), &error),
             qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("place gentleHill medium 7.5,25 6x4 0"), &error)); // 6 placed
    QVERIFY(error.contains(QStringLiteral("at most 6")));
    QVERIFY(!applyText(e, s, QStringLiteral("place road 0,5 45,5"), &error)); // roads after the features
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("end"), &error)); // the village needs a road
    QVERIFY(error.contains(QStringLiteral("road")));
    QVERIFY2(applyText(e, s, QStringLiteral("place road 7.5,0 7.5,30"), &error), qPrintable(error));
    // the road crosses the river: a bridge (8.2) where a stand may cross
    QVERIFY(logHas(s, QStringLiteral("10.4 Catholic League and Imperialists place p7: road 7.5,0 7.5,30")));
    bool bridge = false;
    for (const TerrainFeature& f : s.terrain)
        bridge = bridge || (f.type == QLatin1String("bridge") && contains(f.pieces[0], {7.5, 15}));
    QVERIFY(bridge);
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(e.actor(s), 1);
    // 10.4 option 4: a road may be rerouted only through the villages it passed through
    QVERIFY(!applyText(e, s, QStringLiteral("change road p7 road 0,25 45,25"), &error));
    QVERIFY(error.contains(QStringLiteral("p1")));
    BattleState t = s;
    QVERIFY2(applyText(e, t, QStringLiteral("change road p7 road 0,5 45,5"), &error), qPrintable(error));
    QVERIFY(t.step != Step::Setup);
}

// 10.5 scouting (1d6 per Dragoons, 2d6 per Light Horse, 5-6 hits; the difference in delays) and 10.6
// deployment (commands alternating from the defender, then Cannon alternating from the attacker; the
// zone from the base edge to 4 TUM short of the centre line; Pike+Shot in the centre zone).
void TestTvbd::r10_5_10_6_scoutingAndDeployment() {
    BattleState s;
    QString error;
    QVERIFY2(setupState(*rules, "tvbd-small-generic.json", false, true, 0, &s, &error), qPrintable(error));
    int dice[2] = {0, 0};
    for (const Unit& u : s.units) {
        QCOMPARE(u.status, UnitStatus::Undeployed);
        dice[u.side] += u.type == UnitType::Dragoons ? 1 : u.type == UnitType::LightHorse ? 2 : 0;
    }
    QVERIFY(dice[1] >= 1);
    // side 0 scores no hit, side 1 one hit: one point of advantage for side 1
    for (int i = 0; i < dice[0]; ++i)
        s.scripted << 4;
    for (int i = 0; i < dice[1]; ++i)
        s.scripted << (i == 0 ? 5 : 1);
    TvbdEngine e(*rules);
    e.start(s);
    QCOMPARE(s.step, Step::Setup);
    QCOMPARE(s.setup.scoutDelays[1], 1);
    QCOMPARE(s.setup.scoutDelays[0], 0);
    QVERIFY(logHas(s, QStringLiteral("10.5 Swedes have 1 point of scouting advantage")));
    // the counts agree with their nouns: "1 die" / "3 dice", "1 hit" / "0 hits"
    QStringList rolled;
    for (int i = 0; i < dice[1]; ++i)
        rolled << (i == 0 ? QStringLiteral("5") : QStringLiteral("1"));
    const QString swedes =
        QStringLiteral("10.5 scouting: Swedes roll %1 (%2): 1 hit")
            .arg(dice[1] == 1 ? QStringLiteral("1 die") : QStringLiteral("%1 dice").arg(dice[1]),
                 rolled.join(QLatin1Char(' ')));
    QVERIFY2(s.log.contains(swedes), qPrintable(swedes));
    QVERIFY(!s.log.filter(QStringLiteral("10.5 scouting: ")).filter(QStringLiteral(": 0 hits")).isEmpty());
    QCOMPARE(e.actor(s), 1); // the defender deploys first
    // a Cannon waits for the end; Pike+Shot only in the centre zone (small table: x 7-23), no deploying in
    // the neutral zone (side 1: y below 19)
    int pike = -1, cannon = -1, horse = -1;
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& u = s.units[i];
        if (u.side != 1)
            continue;
        if (u.type == UnitType::PikeShot && pike < 0)
            pike = int(i);
        if (u.type == UnitType::Cannon && cannon < 0)
            cannon = int(i);
        if (u.type == UnitType::Horse && horse < 0)
            horse = int(i);
    }
    QVERIFY(pike >= 0 && cannon >= 0 && horse >= 0);
    auto id = [&](int u) { return s.units[u].id; };
    BattleState t = s;
    QVERIFY(!applyText(e, t, QStringLiteral("deploy %1 15,25 270").arg(id(cannon)), &error));
    QVERIFY(error.contains(QStringLiteral("after all the commands")));
    QVERIFY(!applyText(e, t, QStringLiteral("deploy %1 4,25 270").arg(id(pike)), &error));
    QVERIFY(error.contains(QStringLiteral("centre zone")));
    QVERIFY(!applyText(e, t, QStringLiteral("deploy %1 15,18.6 270").arg(id(pike)), &error));
    QVERIFY(error.contains(QStringLiteral("deployment zone")));
    QVERIFY(!applyText(e, t, QStringLiteral("deploy %1 15,5 90").arg(id(pike)), &error)); // enemy zone
    // the scouting benefit: pass, and the attacker deploys a command first
    QVERIFY2(applyText(e, t, QStringLiteral("pass"), &error), qPrintable(error));
    QCOMPARE(e.actor(t), 0);
    QCOMPARE(t.setup.scoutDelays[1], 0);
    QVERIFY(!applyText(e, t, QStringLiteral("pass"), &error));
    // the first unit placed chooses the command; the rest of that command follows
    QVERIFY2(applyText(e, s, QStringLiteral("deploy %1 15,20 270").arg(id(pike)), &error), qPrintable(error));
    QCOMPARE(e.actor(s), 1);
    const int cmd = s.units[pike].command;
    for (qsizetype i = 0; i < s.units.size(); ++i)
        if (s.units[i].side == 1 && s.units[i].command != cmd && s.units[i].type != UnitType::Cannon) {
            QVERIFY(!applyText(e, s, QStringLiteral("deploy %1 3,25 270").arg(s.units[i].id), &error));
            QVERIFY(error.contains(QStringLiteral("is being deployed")));
            break;
        }
    QVERIFY(!applyText(e, s, QStringLiteral("pass"), &error)); // not in the middle of a command
    // deploy the rest of the command with the policy; its Commander comes last, in contact: attached
    wp::rules::Rng rng(1);
    while (s.setup.deploying == cmd) {
        const TAction a = choosePolicyAction(e, s, Policy::Simple, rng);
        QVERIFY2(e.apply(s, a, &error), qPrintable(error));
    }
    const int commander = s.commands[cmd].commander;
    QCOMPARE(s.units[commander].status, UnitStatus::OnTable);
    QVERIFY(s.units[commander].attachedTo >= 0);
    QCOMPARE(e.actor(s), 0); // alternating
    // the rest by the policy: commands, then Cannon from the attacker, then the bombardment and turn 1
    int cannonFirst = -1;
    while (s.step == Step::Setup) {
        const TAction a = choosePolicyAction(e, s, Policy::Simple, rng);
        if (cannonFirst < 0 && a.kind == TAction::Deploy && s.units[a.unit].type == UnitType::Cannon)
            cannonFirst = s.units[a.unit].side;
        QVERIFY2(e.apply(s, a, &error), qPrintable(error));
    }
    QCOMPARE(cannonFirst, 0);
    for (const Unit& u : s.units) {
        QVERIFY(u.status != UnitStatus::Undeployed);
        const double depth = u.side == 0 ? u.pose.c.y : s.tableD - u.pose.c.y;
        QVERIFY(depth <= s.tableD / 2 - 4);
        if (u.type == UnitType::PikeShot)
            QVERIFY(u.pose.c.x >= 7 && u.pose.c.x <= 23);
    }
    QVERIFY(logHas(s, QStringLiteral("1.7 bombardment")));
}

// The engine's log and refusals put a side's name in English: a name read as a plural ("Imperialists",
// "Swedes") takes a plural verb and "'" as a possessive, a singular one ("Spain", "Sweden") a singular verb
// and "'s" (sidewords.h). The same battle is played with both pairs of names, deployed by the policy (10.6),
// through the bombardment (1.7) and turn 1's initiative (11) to the end of the first step.
void TestTvbd::sideNamesAgreeInTheLog() {
    QCOMPARE(subject(QStringLiteral("Swedes and Saxons"), "passes"),
             QStringLiteral("Swedes and Saxons pass"));
    QCOMPARE(subject(QStringLiteral("Sweden"), "passes"), QStringLiteral("Sweden passes"));
    QCOMPARE(conjugate("is", true), QStringLiteral("are"));
    QCOMPARE(conjugate("has", true), QStringLiteral("have"));
    QCOMPARE(conjugate("may", true), QStringLiteral("may"));
    QCOMPARE(possessive(QStringLiteral("Tilly's Bavarians")), QStringLiteral("Tilly's Bavarians'"));
    QCOMPARE(its(QStringLiteral("Spain")), QStringLiteral("its"));
    QCOMPARE(counted(1, "hit"), QStringLiteral("1 hit"));
    QCOMPARE(counted(0, "hit"), QStringLiteral("0 hits"));
    QCOMPARE(counted(1, "die"), QStringLiteral("1 die"));
    QCOMPARE(counted(3, "die"), QStringLiteral("3 dice"));
    struct Run {
        const char* sides[2];
        const char* deploy; // 10.6
        const char* owner[2];
        const char* is; // 11 initiative
        const char* ends;
        const char* acts;
    };
    const Run runs[] = {
        {{"Imperialists", "Swedes"}, "deploy", {"Imperialists'", "Swedes'"}, "are", "end", "act"},
        {{"Spain", "Sweden"}, "deploys", {"Spain's", "Sweden's"}, "is", "ends", "acts"}};
    for (const Run& run : runs) {
        QJsonObject root = setupJson("tvbd-small-generic.json", false, true);
        root.insert(QStringLiteral("attacker"), 0);
        QJsonArray sides = root.value(QStringLiteral("sides")).toArray();
        for (int i = 0; i < 2; ++i) {
            QJsonObject side = sides[i].toObject();
            side.insert(QStringLiteral("name"), QLatin1String(run.sides[i]));
            sides[i] = side;
        }
        root.insert(QStringLiteral("sides"), sides);
        BattleState s;
        QString error;
        QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
        TvbdEngine e(*rules);
        e.start(s);
        wp::rules::Rng rng(1);
        for (int guard = 0; guard < 200 && s.step == Step::Setup; ++guard)
            QVERIFY2(e.apply(s, choosePolicyAction(e, s, Policy::Simple, rng), &error), qPrintable(error));
        QVERIFY(s.step != Step::Setup);
        const QString a = QLatin1String(run.sides[0]), b = QLatin1String(run.sides[1]);
        const QString log = s.log.join(QLatin1Char('\n'));
        for (const QString& name : {a, b})
            QVERIFY2(logHas(s, QStringLiteral("10.6 %1 %2 ").arg(name, QLatin1String(run.deploy))),
                     qPrintable(log));
        // 1.7: the defender's Cannon first, then the attacker's
        QVERIFY2(
            s.log.contains(
                QStringLiteral("1.7 bombardment: %1 unlimbered Cannon").arg(QLatin1String(run.owner[1]))),
            qPrintable(log));
        QVERIFY2(
            s.log.contains(
                QStringLiteral("1.7 bombardment: %1 unlimbered Cannon").arg(QLatin1String(run.owner[0]))),
            qPrintable(log));
        // turn 1: the initiative's winner is active
        while (s.step == Step::Bombard)
            QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
        QCOMPARE(s.turn, 1);
        const QString initiative = s.log.filter(QStringLiteral("Turn 1. 11 initiative: ")).value(0);
        QVERIFY2(initiative.startsWith(QStringLiteral("Turn 1. 11 initiative: %1 ").arg(a)) &&
                     initiative.endsWith(
                         QStringLiteral(": %1 %2 active").arg(s.sideName[s.active], QLatin1String(run.is))),
                 qPrintable(initiative));
        // a unit of the side not acting is refused in the other side's words
        const QString acting = s.sideName[s.stepSide];
        TAction wrong;
        for (const TAction& x : e.legalActions(s))
            if (x.unit >= 0 && wrong.unit < 0)
                wrong = x;
        QVERIFY(wrong.unit >= 0);
        for (qsizetype i = 0; i < s.units.size(); ++i)
            if (s.units[i].side != s.stepSide && s.units[i].onTable())
                wrong.unit = int(i);
        QVERIFY(s.units[wrong.unit].side != s.stepSide);
        QVERIFY(!e.apply(s, wrong, &error));
        QVERIFY2(error.endsWith(QStringLiteral("%1 is %2 unit; %3 %4 now")
                                    .arg(s.units[wrong.unit].id, QLatin1String(run.owner[1 - s.stepSide]),
                                         acting, QLatin1String(run.acts))),
                 qPrintable(error));
        // the step's end
        QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
        QVERIFY2(s.log.contains(QStringLiteral("%1 %2 the step").arg(acting, QLatin1String(run.ends))),
                 qPrintable(log));
    }
}

// The 10.4 procedure as a function for the battle export (issue 9): deterministic for a seed, within the
// limits, and its JSON loads back as scenario terrain.
void TestTvbd::r10_4_terrainProcedureApi() {
    for (const char* f : {"tvbd-small-generic.json", "tvbd-white-mountain.json"}) {
        const QJsonObject root = setupJson(f, false, false);
        BattleState s;
        QString error;
        QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
        const bool big = s.tableW > 40;
        QSet<QString> layouts;
        for (quint64 seed = 1; seed <= 4; ++seed) {
            const TerrainProcedureResult r1 = runTerrainProcedure(*rules, s, seed);
            const TerrainProcedureResult r2 = runTerrainProcedure(*rules, s, seed);
            QVERIFY2(r1.ok, qPrintable(r1.error));
            QCOMPARE(r1.json, r2.json);
            QCOMPARE(r1.log, r2.log);
            QVERIFY(!r1.actions.isEmpty());
            int features = 0;
            for (const TerrainSpec& t : r1.terrain)
                features += t.type != QLatin1String("road") && t.type != QLatin1String("bridge");
            QVERIFY(!r1.log.filter(QStringLiteral("10.4")).isEmpty());
            // the attacker's change may remove one
            QVERIFY2(features >= (big ? 1 : 0) && features <= (big ? 6 : 4),
                     qPrintable(QString::number(features)));
            QJsonObject placed = root;
            QVERIFY2(placeTerrainByProcedure(*rules, &placed, seed, &error), qPrintable(error));
            QCOMPARE(placed.value(QStringLiteral("terrain")).toArray(), r1.json);
            BattleState back;
            QVERIFY2(scenarioFromJson(placed, QStringLiteral("placed.json"), *rules, &back, &error),
                     qPrintable(error));
            QCOMPARE(back.terrain.size(), r1.terrain.size());
            layouts.insert(QString::fromUtf8(QJsonDocument(r1.json).toJson()));
        }
        QVERIFY(layouts.size() > 1); // the seed matters
    }
}

// 16.6 terrain cards, the worked example T30 (16.6.1, Figure 37): a big table's 3 x 2 layout with three large
// cards (woods, field, gentle hill), two medium (rough ground, stream) and one open; the defender passes
// its centre swap, the attacker swaps the large gentle hill in the centre for the open flank card (16.6.4
// option 1), the defender passes its swap of the two medium cards (16.6.5), the stream is placed and splits
// the large wood into two medium woods (16.6.7), and the road crosses the stream at a bridge (16.6.8).
void TestTvbd::t30_terrainCards() {
    BattleState s;
    QString error;
    QVERIFY2(cardsState(*rules, false, &s, &error), qPrintable(error));
    TvbdEngine e(*rules);
    e.start(s);
    QCOMPARE(s.step, Step::Setup);
    QCOMPARE(s.setup.stage, SetupStage::TerrainCards);
    QCOMPARE(s.setup.cardCols, 3); // 16.6.3: a big table has the 3 x 2 layout
    QCOMPARE(s.setup.cardRows, 2);
    QCOMPARE(s.setup.cards.size(), 6);
    QVERIFY(logHas(s, QStringLiteral("16.6.3 terrain cards, 3 x 2 layout")));
    // The example's deal replaces the random one. Sectors from the top left (the defender's half on top):
    // 1 field L, 2 gentle hill L, 3 woods L / 4 open, 5 rough M, 6 stream along the table.
    s.setup.cards = {{QStringLiteral("field"), QStringLiteral("large"), 0},
                     {QStringLiteral("gentleHill"), QStringLiteral("large"), 0},
                     {QStringLiteral("woods"), QStringLiteral("large"), 0},
                     {},
                     {QStringLiteral("rough"), QStringLiteral("medium"), 0},
                     {QStringLiteral("stream"), QStringLiteral("medium"), 1}};
    s.setup.cardSteps = {CardCentreSwapDefender, CardCentreSwapAttacker, CardDefenderAdjust,
                         CardSecondStream};
    s.stepSide = 1;
    QCOMPARE(e.actor(s), 1);
    QVERIFY(e.prompt(s).startsWith(QStringLiteral("16.6.4")));
    // 16.6.4: a swap must be the first possible option: a large centre card for an open flank card
    QStringList legal;
    for (const TAction& a : e.legalActions(s))
        legal << actionText(s, a);
    QCOMPARE(legal, (QStringList{QStringLiteral("card swap 2 4"), QStringLiteral("end")}));
    BattleState t = s;
    QVERIFY(!applyText(e, t, QStringLiteral("card swap 5 4"), &error)); // option 3 while option 1 is possible
    QVERIFY(error.contains(QStringLiteral("16.6")));
    QVERIFY(!applyText(e, t, QStringLiteral("card swap 2 1"), &error));          // large for large: no option
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error)); // the defender passes
    QCOMPARE(e.actor(s), 0);
    QVERIFY2(applyText(e, s, QStringLiteral("card swap 2 4"), &error), qPrintable(error));
    QVERIFY(s.setup.cards[1].type.isEmpty());
    QCOMPARE(s.setup.cards[3].type, QStringLiteral("gentleHill"));
    QCOMPARE(s.setup.cards[3].orientation, 0); // a swap keeps the orientation
    // 16.6.5: the defender may swap the two medium cards (rough ground and stream) or turn one card
    QCOMPARE(e.actor(s), 1);
    QVERIFY(e.prompt(s).startsWith(QStringLiteral("16.6.5")));
    legal.clear();
    for (const TAction& a : e.legalActions(s))
        legal << actionText(s, a);
    QVERIFY(legal.contains(QStringLiteral("card swap 5 6")));
    QVERIFY(legal.contains(QStringLiteral("card rotate 6 0")));
    QVERIFY(!legal.contains(QStringLiteral("card swap 1 3")));   // large cards are not swapped here
    QVERIFY(!legal.contains(QStringLiteral("card rotate 2 1"))); // an open card has nothing to turn
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    // 16.6.6-16.6.7: the terrain is laid; the defender places the roads
    QCOMPARE(s.setup.stage, SetupStage::Roads);
    QCOMPARE(e.actor(s), 1);
    auto spec = [&](const QString& id) {
        for (const TerrainSpec& t2 : s.setup.specs)
            if (t2.id == id)
                return t2;
        return TerrainSpec{};
    };
    QCOMPARE(s.setup.specs.size(), 6); // stream, field, woods in two halves, hill, rough ground
    const TerrainSpec stream = spec(QStringLiteral("c6"));
    QCOMPARE(stream.type, QStringLiteral("stream"));
    QCOMPARE(stream.points,
             (QList<Vec2>{{37.5, 0}, {37.5, 30}}));       // along the table through sector 6's middle
    QCOMPARE(spec(QStringLiteral("c3")).type, QString()); // the large wood is split ...
    const TerrainSpec w1 = spec(QStringLiteral("c3a")), w2 = spec(QStringLiteral("c3b"));
    QCOMPARE(w1.type, QStringLiteral("woods"));
    QCOMPARE(w2.type, QStringLiteral("woods"));
    QCOMPARE(w1.size, QStringLiteral("medium")); // ... into two medium woods, one on each side of the stream
    QCOMPARE(w2.size, QStringLiteral("medium"));
    QVERIFY(w1.centre.x < 37.5 && w2.centre.x > 37.5);
    const TerrainFeature water = terrainFeature(*rules, stream);
    for (const TerrainSpec& w : {w1, w2}) {
        const Polygon p = terrainFeature(*rules, w).pieces.first();
        QVERIFY(!overlaps(p, water.pieces.first(), 0.01));
        for (const Vec2& v : p) // still in sector 3 (x 30-45, y 15-30)
            QVERIFY(v.x >= 30 - 1e-9 && v.x <= 45 + 1e-9 && v.y >= 15 - 1e-9 && v.y <= 30 + 1e-9);
    }
    QCOMPARE(spec(QStringLiteral("c4")).type, QStringLiteral("gentleHill")); // the hill is now on the flank
    QCOMPARE(spec(QStringLiteral("c4")).size, QStringLiteral("large"));
    QCOMPARE(spec(QStringLiteral("c4")).centre, (Vec2{7.5, 7.5}));
    QCOMPARE(spec(QStringLiteral("c1")).centre, (Vec2{7.5, 22.5}));
    QCOMPARE(spec(QStringLiteral("c5")).size, QStringLiteral("medium")); // the stream does not reach it
    // 16.6.8: at least one road; it crosses the stream at a bridge
    QVERIFY(!applyText(e, s, QStringLiteral("end"), &error));
    QVERIFY(error.contains(QStringLiteral("16.6.8")));
    QVERIFY2(applyText(e, s, QStringLiteral("place road 0,15 45,15"), &error), qPrintable(error));
    int bridges = 0;
    for (const TerrainFeature& f : s.terrain)
        if (f.type == QLatin1String("bridge")) {
            ++bridges;
            QVERIFY(contains(f.pieces.first(), {37.5, 15}));
        }
    QCOMPARE(bridges, 1);
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QVERIFY(s.step != Step::Setup); // the scenario's deployment: on to the bombardment and turn 1
    QVERIFY(logHas(s, QStringLiteral("16.6.4")) && logHas(s, QStringLiteral("16.6.5")));
    QVERIFY(logHas(s, QStringLiteral("16.6.6-16.6.7 the terrain of the cards")));
}

// 16.6 through the API the battle export uses: random deals from the 36-card deck (no river or bend card),
// the simple policy's decisions, at least one road; the same seed gives the same terrain.
void TestTvbd::r16_6_terrainCardsProcedure() {
    const QSet<QString> deckTypes{QStringLiteral("woods"),         QStringLiteral("field"),
                                  QStringLiteral("rough"),         QStringLiteral("gentleHill"),
                                  QStringLiteral("difficultHill"), QStringLiteral("stream"),
                                  QStringLiteral("town"),          QStringLiteral("village"),
                                  QStringLiteral("road"),          QStringLiteral("bridge")};
    for (const char* f : {"tvbd-small-generic.json", "tvbd-white-mountain.json"}) {
        const QJsonObject root = setupJson(f, false, false);
        BattleState s;
        QString error;
        QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
        QSet<QString> layouts;
        for (quint64 seed = 1; seed <= 6; ++seed) {
            const TerrainProcedureResult r1 = runTerrainProcedure(*rules, s, seed, TerrainMethod::Cards);
            const TerrainProcedureResult r2 = runTerrainProcedure(*rules, s, seed, TerrainMethod::Cards);
            QVERIFY2(r1.ok, qPrintable(r1.error));
            QCOMPARE(r1.json, r2.json);
            QVERIFY(!r1.log.filter(QStringLiteral("16.6.3")).isEmpty());
            QVERIFY(!r1.log.filter(QStringLiteral("16.6.8")).isEmpty());
            int roads = 0, streams = 0;
            for (const TerrainSpec& t : r1.terrain) {
                QVERIFY2(deckTypes.contains(t.type), qPrintable(t.type));
                roads += t.type == QLatin1String("road");
                streams += t.type == QLatin1String("stream");
            }
            QVERIFY(roads >= 1);
            QVERIFY(streams <= 1); // 16.6.6: one stream on the table
            QJsonObject placed = root;
            QVERIFY2(placeTerrainByProcedure(*rules, &placed, seed, &error, nullptr, TerrainMethod::Cards),
                     qPrintable(error));
            QCOMPARE(placed.value(QStringLiteral("terrain")).toArray(), r1.json);
            layouts.insert(QString::fromUtf8(QJsonDocument(r1.json).toJson()));
        }
        QVERIFY(layouts.size() > 1);
    }
    // the notation of the card decisions reads back
    BattleState s;
    QString error;
    QJsonObject root = setupJson("tvbd-white-mountain.json", false, false);
    root.insert(QStringLiteral("setup"), QJsonObject{{QStringLiteral("terrain"), QStringLiteral("cards")}});
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    TvbdEngine e(*rules);
    e.start(s);
    for (const QString& text : {QStringLiteral("card swap 2 4"), QStringLiteral("card rotate 3 2"),
                                QStringLiteral("card open 6")}) {
        TAction a;
        QVERIFY2(parseAction(s, text, &a, &error), qPrintable(error));
        QCOMPARE(actionText(s, a), text);
    }
    TAction a;
    QVERIFY(!parseAction(s, QStringLiteral("card rotate 3 4"), &a, &error));
    QVERIFY(!parseAction(s, QStringLiteral("card swap 0 4"), &a, &error));
}

// 10.5 scouting benefit 2 with terrain cards (digest §10 gap 16: the roll is made before the cards' terrain
// is laid): a point of advantage buys a swap of two medium cards; the points left are delays (benefits 3-4).
void TestTvbd::r10_5_scoutingBenefit2() {
    BattleState s;
    QString error;
    QVERIFY2(cardsState(*rules, true, &s, &error), qPrintable(error));
    TvbdEngine e(*rules);
    e.start(s);
    QCOMPARE(s.setup.stage, SetupStage::TerrainCards);
    QVERIFY(!s.setup.scouted);
    s.setup.cards = {{QStringLiteral("field"), QStringLiteral("large"), 0},
                     {},
                     {QStringLiteral("woods"), QStringLiteral("large"), 0},
                     {QStringLiteral("gentleHill"), QStringLiteral("large"), 0},
                     {QStringLiteral("rough"), QStringLiteral("medium"), 0},
                     {QStringLiteral("stream"), QStringLiteral("medium"), 1}};
    s.setup.cardSteps = {CardDefenderAdjust, CardSecondStream, CardScoutSwap};
    s.stepSide = 1;
    int dice[2] = {0, 0};
    for (const Unit& u : s.units)
        dice[u.side] += u.type == UnitType::Dragoons ? 1 : u.type == UnitType::LightHorse ? 2 : 0;
    const int w = dice[0] > 0 ? 0 : 1;
    QVERIFY(dice[w] > 0);
    s.scripted.clear();
    for (int side = 0; side < 2; ++side)
        for (int i = 0; i < dice[side]; ++i)
            s.scripted << (side == w ? 6 : 1);
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error),
             qPrintable(error)); // 16.6.5: the defender passes
    QVERIFY(s.setup.scouted);    // rolled now, before the terrain is laid
    QCOMPARE(s.setup.scoutDelays[w], dice[w]);
    QCOMPARE(s.setup.scoutDelays[1 - w], 0);
    QCOMPARE(e.actor(s), w);
    QVERIFY(e.prompt(s).startsWith(QStringLiteral("10.5")));
    QStringList legal;
    for (const TAction& a : e.legalActions(s))
        legal << actionText(s, a);
    QCOMPARE(legal,
             (QStringList{QStringLiteral("card swap 5 6"), QStringLiteral("end")})); // the two medium cards
    QVERIFY(!applyText(e, s, QStringLiteral("card swap 1 3"), &error)); // large cards: not benefit 2
    QVERIFY2(applyText(e, s, QStringLiteral("card swap 5 6"), &error), qPrintable(error));
    QCOMPARE(s.setup.cards[4].type, QStringLiteral("stream"));
    QCOMPARE(s.setup.scoutDelays[w], dice[w] - 1); // one point spent
    if (s.setup.stage == SetupStage::TerrainCards) // points left: another swap or end
        QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(s.setup.stage, SetupStage::Roads);
    QVERIFY(logHas(s, QStringLiteral("10.5 benefit 2:")));
    bool streamInFive = false;
    for (const TerrainSpec& t : s.setup.specs)
        streamInFive = streamInFive || (t.id == QLatin1String("c5") && t.type == QLatin1String("stream") &&
                                        t.points == QList<Vec2>{{22.5, 0}, {22.5, 30}});
    QVERIFY(streamInFive); // the stream is laid from its new sector
    QVERIFY2(applyText(e, s, QStringLiteral("place road 0,15 45,15"), &error), qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(s.setup.stage, SetupStage::Deploy); // deployment, without a second scouting roll
    QCOMPARE(s.log.filter(QStringLiteral("10.5 scouting:")).size(), 2);
    QCOMPARE(s.setup.scoutDelays[w], dice[w] - 1);
}

// Random and simple play through the whole set-up (10.3-10.6) and the battle; the action texts replay it.
void TestTvbd::setupRandomPlayAndReplay() {
    BattleState s;
    QString error;
    QVERIFY2(setupState(*rules, "tvbd-small-generic.json", true, true, -1, &s, &error), qPrintable(error));
    TvbdEngine e(*rules);
    for (quint64 seed = 1; seed <= 3; ++seed)
        for (Policy pol : {Policy::Random, Policy::Simple}) {
            TacticalGame g(e, s, seed);
            QCOMPARE(g.state().step, Step::Setup);
            wp::rules::Rng rng(seed * 17);
            int n = 0;
            bool sawDeploy = false;
            while (!g.state().over() && n < 20000) {
                const QList<TAction> l = e.legalActions(g.state());
                QVERIFY2(!l.isEmpty(), qPrintable(e.prompt(g.state())));
                const TAction a = choosePolicyAction(e, g.state(), pol, rng);
                QVERIFY(l.contains(a));
                sawDeploy = sawDeploy || a.kind == TAction::Deploy;
                QVERIFY2(g.apply(a, &error), qPrintable(error));
                ++n;
            }
            QVERIFY(g.state().over());
            QVERIFY(sawDeploy);
            QVERIFY(logHas(g.state(), QStringLiteral("10.4")));
            QVERIFY(logHas(g.state(), QStringLiteral("10.6")));
            TacticalGame replay(e, s, seed);
            for (const QString& t : g.actionTexts())
                QVERIFY2(replay.applyText(t, &error), qPrintable(t + QStringLiteral(": ") + error));
            QCOMPARE(replay.state().log, g.state().log);
        }
    // the shipped pick-up scenario leaves terrain and deployment to the players
    BattleState pick;
    QVERIFY2(loadScenario(QStringLiteral(WESTPHALIA_TEST_DIR "/../scenarios/battles/tvbd-pickup.json"),
                          *rules, &pick, &error),
             qPrintable(error));
    for (const Unit& u : pick.units)
        QCOMPARE(u.status, UnitStatus::Undeployed);
    TacticalGame g(e, pick, 1);
    const AutoResult res = autoResolve(g, Policy::Simple, 1);
    QVERIFY(res.winner >= 0);
    QVERIFY(logHas(g.state(), QStringLiteral("10.6")));
    // the shipped terrain-card pick-up (16.6): simple and random play through the card decisions, replayed
    BattleState cards;
    QVERIFY2(loadScenario(QStringLiteral(WESTPHALIA_TEST_DIR "/../scenarios/battles/tvbd-cards.json"), *rules,
                          &cards, &error),
             qPrintable(error));
    QVERIFY(cards.setup.terrainCards);
    for (quint64 seed = 1; seed <= 3; ++seed)
        for (Policy pol : {Policy::Simple, Policy::Random}) {
            TacticalGame cg(e, cards, seed);
            const AutoResult cr = autoResolve(cg, pol, seed);
            QVERIFY2(cr.winner >= 0, qPrintable(cr.reason));
            QVERIFY(logHas(cg.state(), QStringLiteral("16.6.3")));
            QVERIFY(logHas(cg.state(), QStringLiteral("16.6.8")));
            TacticalGame replay(e, cards, seed);
            for (const QString& t : cg.actionTexts())
                QVERIFY2(replay.applyText(t, &error), qPrintable(t + QStringLiteral(": ") + error));
            QCOMPARE(replay.state().log, cg.state().log);
        }
}

// 14.1.4: a Commander may charge (3 TUM) to attach to a unit of its command that has just charged or is
// locked in melee; Commanders charge last (14.4.1); a friend's declaration does not cancel a charge (14.2).
void TestTvbd::r14_1_4_commanderChargeToAttach() {
    Pos p(*rules);
    const int horse = p.add(0, UnitType::Horse, 10, 10, 90);      // front edge y 10.5
    const int c = p.add(0, UnitType::Commander, 12, 9.5, 90);     // unattached
    const int pike = p.add(1, UnitType::PikeShot, 10, 12.5, 270); // front edge y 12
    const int shot = p.add(1, UnitType::Shot, 30, 10, 270);
    p.s.step = Step::Declare;
    p.s.stepSide = 0;
    p.s.active = 0;
    TvbdEngine e(*rules);
    auto listed = [&](int u, int t) {
        for (const TAction& a : e.legalActions(p.s))
            if (a.kind == TAction::Charge && a.unit == u && a.target == t)
                return true;
        return false;
    };
    QVERIFY(listed(horse, pike));
    QVERIFY(!listed(c, horse)); // the Horse has not declared
    QVERIFY(e.commanderChargeTargets(p.s, c).isEmpty());
    p.s.units[horse].chargeTarget = pike;
    QCOMPARE(e.commanderChargeTargets(p.s, c), QList<int>{horse});
    QVERIFY(listed(c, horse));
    p.s.units[c].chargeTarget = horse;
    e.cancelCharges(p.s);
    QCOMPARE(p.s.units[horse].chargeTarget, pike); // the Commander's declaration on a friend cancels nothing
    e.resolveCharges(p.s);
    QVERIFY(p.s.units[horse].charged);
    QCOMPARE(p.s.units[c].attachedTo, horse);
    QCOMPARE(p.s.units[c].pose.c, p.s.units[horse].pose.c);
    QVERIFY(logHas(p.s, QStringLiteral("14.1.4 A1 charges")));
    // the Commander moved after the Horse (14.4.1 order)
    qsizetype hLine = -1, cLine = -1;
    for (qsizetype i = 0; i < p.s.log.size(); ++i) {
        if (p.s.log[i].startsWith(QLatin1String("14.4 A0 charges")))
            hLine = i;
        if (p.s.log[i].startsWith(QLatin1String("14.1.4 A1 charges")))
            cLine = i;
    }
    QVERIFY(hLine >= 0 && cLine > hLine);
    // next turn the Horse is locked in melee: a Commander within 3 TUM may charge to it; beyond, not
    p.s.units[c].attachedTo = -1;
    p.s.units[c].pose.c = {10, 9}; // 2.5 TUM from the Horse's centre
    QVERIFY(e.locked(p.s, horse));
    QCOMPARE(e.commanderChargeTargets(p.s, c), QList<int>{horse});
    p.s.units[c].pose.c = {10, 5};
    QVERIFY(e.commanderChargeTargets(p.s, c).isEmpty());
    // a unit whose charge did not happen: the Commander stays where it is
    Pos q(*rules);
    const int h2 = q.add(0, UnitType::Horse, 10, 10, 90);
    const int c2 = q.add(0, UnitType::Commander, 12, 9.5, 90);
    q.add(1, UnitType::PikeShot, 30, 25, 270);
    q.s.units[c2].chargeTarget = h2; // declared, but the Horse's own declaration was cancelled
    e.resolveCharges(q.s);
    QCOMPARE(q.s.units[c2].attachedTo, -1);
    QCOMPARE(q.s.units[c2].pose.c, (Vec2{12, 9.5}));
    QVERIFY(logHas(q.s, QStringLiteral("did not charge")));
    Q_UNUSED(shot);
}

// 16.5.6: each field-fortification section costs 2 coins, counted with the units' coins (16.3.2).
void TestTvbd::r16_5_6_fortificationCost() {
    Pos p(*rules);
    p.add(1, UnitType::Cannon, 10, 20, 270);   // raw: 2 coins
    p.add(1, UnitType::PikeShot, 30, 20, 270); // ordinary: 4 coins
    p.add(0, UnitType::PikeShot, 30, 17, 90);  // ordinary: 4 coins
    int sections = -1;
    QCOMPARE(armyCoins(*rules, p.s, 1, &sections), 6);
    QCOMPARE(sections, 0);
    p.terrain(QStringLiteral("fortification"), rectangle({10, 19.65}, 2, 0.3, 90));
    p.terrain(QStringLiteral("fortification"), rectangle({30, 19.65}, 2, 0.3, 90));
    QCOMPARE(armyCoins(*rules, p.s, 1, &sections), 10);
    QCOMPARE(sections, 2);
    QCOMPARE(armyCoins(*rules, p.s, 0, &sections), 4); // side 0 garrisons none
    QCOMPARE(sections, 0);
    auto coinProblem = [&](int budget) {
        for (const QString& x : armyListProblems(*rules, p.s, 1, budget))
            if (x.startsWith(QLatin1String("16.3.2")))
                return x;
        return QString();
    };
    QVERIFY(coinProblem(10).isEmpty());
    QVERIFY2(coinProblem(9).contains(QStringLiteral("16.5.6")), qPrintable(coinProblem(9)));
    QVERIFY(coinProblem(9).contains(QStringLiteral("10 coins")));
}

// TVBD 10.1 (step 1.1): the game size is agreed: side 0 proposes the table and the army size (units, or
// coins 16.3.2), side 1 agrees or makes the final proposal (a decision); sizes outside Table 4 are refused.
void TestTvbd::r10_1_gameSize() {
    BattleState s;
    QString error;
    QVERIFY2(loadScenario(kScenarios + QStringLiteral("tvbd-recruit.json"), *rules, &s, &error),
             qPrintable(error));
    TvbdEngine e(*rules);
    e.start(s);
    QCOMPARE(s.step, Step::Setup);
    QCOMPARE(s.setup.stage, SetupStage::GameSize);
    QCOMPARE(e.actor(s), 0);
    QVERIFY(e.prompt(s).startsWith(QStringLiteral("10.1")));
    QStringList legal = legalTexts(e, s);
    for (const char* want : {"size small units 15", "size small units 10", "size big units 40",
                             "size big coins 100", "size giant units 60", "size shallowSmall coins 72"})
        QVERIFY2(legal.contains(QLatin1String(want)), want);
    QVERIFY(!legal.contains(QStringLiteral("agree")));
    QVERIFY(!applyText(e, s, QStringLiteral("size small units 19"), &error)); // Table 4: small 10-18
    QVERIFY2(error.contains(QStringLiteral("10.1")) && error.contains(QStringLiteral("10-18")),
             qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("size big coins 200"), &error)); // 16.3.2: big 73-160
    QVERIFY(error.contains(QStringLiteral("16.3.2")));
    QVERIFY(!applyText(e, s, QStringLiteral("size huge units 20"), &error));
    QVERIFY(!applyText(e, s, QStringLiteral("agree"), &error)); // side 0 proposes first
    QVERIFY2(applyText(e, s, QStringLiteral("size big units 25"), &error), qPrintable(error));
    QCOMPARE(e.actor(s), 1);
    QCOMPARE(s.tableW, 45.0);
    QVERIFY(legalTexts(e, s).contains(QStringLiteral("agree")));
    BattleState agreed = s;
    QVERIFY2(applyText(e, agreed, QStringLiteral("agree"), &error), qPrintable(error));
    QCOMPARE(agreed.setup.armyUnits, 25);
    QCOMPARE(agreed.setup.stage, SetupStage::Recruit); // 10.2 next, side 0 first
    QCOMPARE(e.actor(agreed), 0);
    QVERIFY(
        logHas(agreed, QStringLiteral("10.1 Swedes agree: a big game (45 x 30 TUM table), 25 units a side")));
    // the other side's proposal is final
    QVERIFY2(applyText(e, s, QStringLiteral("size small coins 60"), &error), qPrintable(error));
    QCOMPARE(s.sizeName, QStringLiteral("small"));
    QCOMPARE(s.tableW, 30.0);
    QCOMPARE(s.setup.armyCoins, 60);
    QCOMPARE(s.setup.armyUnits, 0);
    QCOMPARE(s.setup.stage, SetupStage::Recruit);
    QVERIFY(logHas(s, QStringLiteral("final")));
}

// TVBD 10.2 (step 1.2) with 7.3.2 and 7.3.3: each side recruits its army up to the agreed number of units,
// in commands of 3 to 8 units each with one Commander, 1-4 Cannon and at most 2 Dragoons, Shot, Rabble and
// Light Horse; by units every unit is ordinary (quality goes with coins, 16.3). 1.3 follows.
void TestTvbd::r10_2_recruitByUnits() {
    BattleState s;
    QString error;
    QJsonObject root = recruitJson("units", 10);
    root.remove(QStringLiteral("attacker")); // 1.3 rolled after recruiting
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    QCOMPARE(s.units.size(), 0);
    TvbdEngine e(*rules);
    e.start(s);
    QCOMPARE(s.setup.stage, SetupStage::Recruit);
    QCOMPARE(e.actor(s), 0);
    QVERIFY(e.prompt(s).startsWith(QStringLiteral("10.2 Imperialists")));
    QCOMPARE(legalTexts(e, s), QStringList{QStringLiteral("recruit command")}); // a command first
    QVERIFY(!applyText(e, s, QStringLiteral("end"), &error));
    QVERIFY2(applyText(e, s, QStringLiteral("recruit command"), &error), qPrintable(error));
    QCOMPARE(s.commands.size(), 1);
    QCOMPARE(s.commands[0].id, QStringLiteral("I-1"));
    QCOMPARE(s.units[s.commands[0].commander].id, QStringLiteral("IC1"));
    QCOMPARE(s.units[0].status, UnitStatus::Undeployed);
    QVERIFY(!applyText(e, s, QStringLiteral("end"), &error)); // 1 unit, no Cannon
    QVERIFY(error.contains(QStringLiteral("7.3")));
    QVERIFY(!applyText(e, s, QStringLiteral("recruit I-1 Horse superior"), &error));
    QVERIFY2(error.contains(QStringLiteral("16.3")), qPrintable(error));
    for (const char* a : {"recruit I-1 Cannon", "recruit I-1 Horse"})
        QVERIFY2(applyText(e, s, QLatin1String(a), &error), qPrintable(error));
    QCOMPARE(s.units.last().id, QStringLiteral("I2"));
    QVERIFY(legalTexts(e, s).contains(QStringLiteral("end"))); // a legal army of 3 units
    for (int i = 0; i < 3; ++i)
        QVERIFY2(applyText(e, s, QStringLiteral("recruit I-1 Cannon raw"), &error), qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("recruit I-1 Cannon raw"), &error)); // 7.3.2 at most 4 Cannon
    QVERIFY2(error.contains(QStringLiteral("7.3.2 at most 4 Cannon")), qPrintable(error));
    for (int i = 0; i < 2; ++i)
        QVERIFY2(applyText(e, s, QStringLiteral("recruit I-1 Shot"), &error), qPrintable(error));
    QCOMPARE(s.commands[0].initialUnits, 8);
    QVERIFY(!applyText(e, s, QStringLiteral("recruit I-1 Horse"), &error)); // 7.3.3 at most 8 in a command
    QVERIFY(error.contains(QStringLiteral("7.3.3")));
    // 8 of 10 units: a new command needs 3, so nothing more can be recruited
    QVERIFY(!applyText(e, s, QStringLiteral("recruit command"), &error));
    QVERIFY2(error.contains(QStringLiteral("could no longer be completed")), qPrintable(error));
    QCOMPARE(legalTexts(e, s), QStringList{QStringLiteral("end")});
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    const QString written =
        QStringLiteral("10.2 Imperialists have recruited 8 units (24 coins): I-1: Commander, "
                       "4 Cannon, Horse, 2 Shot");
    QVERIFY(!logHas(s, written)); // written down, secret until side 1 has recruited too
    // side 1 recruits, here by the simple policy, within the army list and the 10 units
    QCOMPARE(e.actor(s), 1);
    wp::rules::Rng rng(5);
    for (int n = 0; n < 100 && s.setup.stage == SetupStage::Recruit; ++n)
        QVERIFY2(e.apply(s, chooseSetupAction(e, s, rng), &error), qPrintable(error));
    QVERIFY(logHas(s, written));
    QVERIFY(armyListProblemsWithBudget(*rules, s, 1).isEmpty());
    QCOMPARE(s.originalUnits[1], 10);
    // 1.3 comes after 1.2 (10.3), then the deployment of the recruited units (10.6)
    qsizetype recruited = -1, attacker = -1;
    for (qsizetype i = 0; i < s.log.size(); ++i) {
        if (s.log[i].startsWith(QLatin1String("10.2 Swedes have recruited")))
            recruited = i;
        if (s.log[i].startsWith(QLatin1String("1.3")))
            attacker = i;
    }
    QVERIFY(recruited >= 0 && attacker > recruited);
    QCOMPARE(s.setup.stage, SetupStage::Deploy);
    TAction a;
    QVERIFY(parseAction(s, QStringLiteral("recruit I-1 PikeShot superior large"), &a, &error));
    QCOMPARE(actionText(s, a), QStringLiteral("recruit I-1 PikeShot superior large"));
    QVERIFY(!parseAction(s, QStringLiteral("recruit X-9 Horse"), &a, &error));
}

// TVBD 10.2 "Either write your order of battle down, if you want to keep it secret": side 1 recruits without
// seeing side 0's army. Its legal actions, prompt and the simple policy's choices are the same whatever side
// 0 recruited; the log holds back each side's recruits until both have finished, then reveals both.
void TestTvbd::r10_2_secretOrderOfBattle() {
    const TvbdEngine e(*rules);
    QString error;
    auto recruited = [&](const QStringList& army) {
        BattleState s;
        if (!scenarioFromJson(recruitJson("units", 12), QStringLiteral("x.json"), *rules, &s, &error))
            return s;
        e.start(s);
        for (const QString& a : army)
            if (!applyText(e, s, a, &error))
                s.title = a + QStringLiteral(": ") + error; // reported below
        return s;
    };
    BattleState a = recruited({QStringLiteral("recruit command"), QStringLiteral("recruit I-1 Cannon"),
                               QStringLiteral("recruit I-1 Horse"), QStringLiteral("recruit I-1 LightHorse"),
                               QStringLiteral("end")});
    BattleState b = recruited({QStringLiteral("recruit command"), QStringLiteral("recruit I-1 PikeShot"),
                               QStringLiteral("recruit I-1 PikeShot"), QStringLiteral("recruit command"),
                               QStringLiteral("recruit I-2 Horse"), QStringLiteral("recruit I-2 Horse"),
                               QStringLiteral("recruit I-2 Cannon"), QStringLiteral("recruit I-2 Cannon"),
                               QStringLiteral("end")});
    QVERIFY2(a.title.isEmpty() && b.title.isEmpty(), qPrintable(a.title + b.title));
    QCOMPARE(a.originalUnits[0], 4);
    QCOMPARE(b.originalUnits[0], 8);
    QVERIFY(orderOfBattleSecret(a));
    QVERIFY(logHas(a, QStringLiteral("10.2 Imperialists have written down their order of battle")));
    auto secretKept = [](const BattleState& s) { // the log names no recruit of either side
        static const QRegularExpression recruit(
            QStringLiteral(" recruits? [A-Z]+[0-9]+ \\(| forms? command | (has|have) recruited "));
        for (const QString& line : s.log)
            if (recruit.match(line).hasMatch())
                return line;
        return QString();
    };
    wp::rules::Rng ra(9), rb(9);
    int steps = 0;
    for (; steps < 100 && a.setup.stage == SetupStage::Recruit; ++steps) {
        QCOMPARE(e.actor(a), 1);
        QCOMPARE(legalTexts(e, a), legalTexts(e, b));
        QCOMPARE(e.prompt(a), e.prompt(b));
        QCOMPARE(secretKept(a), QString());
        QCOMPARE(secretKept(b), QString());
        const TAction xa = chooseSetupAction(e, a, ra), xb = chooseSetupAction(e, b, rb);
        QCOMPARE(actionText(a, xa), actionText(b, xb));
        QVERIFY2(e.apply(a, xa, &error), qPrintable(error));
        QVERIFY2(e.apply(b, xb, &error), qPrintable(error));
    }
    QVERIFY(steps > 5);
    QCOMPARE(a.originalUnits[1], b.originalUnits[1]);
    // both written down: revealed together, side 0's first
    QVERIFY(!orderOfBattleSecret(a));
    const qsizetype revealed =
        a.log.indexOf(QStringLiteral("10.2 both armies are recruited: the orders of battle "
                                     "are revealed"));
    QVERIFY(revealed >= 0);
    qsizetype first = -1, second = -1;
    for (qsizetype i = 0; i < a.log.size(); ++i) {
        if (a.log[i].startsWith(QLatin1String("10.2 Imperialists recruit I3 (Light Horse")))
            first = i;
        if (a.log[i].startsWith(QLatin1String("10.2 Swedes have recruited")))
            second = i;
    }
    QVERIFY(revealed < first && first < second);
    QVERIFY(!secretKept(a).isEmpty()); // the check above finds recruits once they are in the log
    QVERIFY(a.setup.secretLog[0].isEmpty() && a.setup.secretLog[1].isEmpty());
}

// TVBD 7.3.2 "Can have up to two Light Horse (only Spanish outside the peninsular and German Catholic
// armies)": a side's nationality (optional) decides; recruiting offers Light Horse only to a side that may
// have them, a fixed army breaking the rule is refused on load naming file, side and unit.
void TestTvbd::r7_3_2_lightHorseNationality() {
    const TvbdEngine e(*rules);
    QString error;
    auto side = [](const char* name, const char* nat) {
        QJsonObject o{{QStringLiteral("name"), QLatin1String(name)}};
        if (nat)
            o.insert(QStringLiteral("nationality"), QLatin1String(nat));
        return o;
    };
    QJsonObject root = recruitJson("units", 10);
    root.insert(QStringLiteral("sides"),
                QJsonArray{side("Imperialists", "imperial"), side("Swedes", "swedish")});
    BattleState s;
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    QCOMPARE(s.nationality[1], QStringLiteral("swedish"));
    QVERIFY(!s.noLightHorse[0] && s.noLightHorse[1]);
    e.start(s);
    for (const char* a : {"recruit command", "recruit I-1 Cannon"})
        QVERIFY2(applyText(e, s, QLatin1String(a), &error), qPrintable(error));
    QVERIFY(legalTexts(e, s).contains(QStringLiteral("recruit I-1 LightHorse ordinary")));
    for (const char* a : {"recruit I-1 LightHorse", "end", "recruit command"})
        QVERIFY2(applyText(e, s, QLatin1String(a), &error), qPrintable(error));
    QCOMPARE(e.actor(s), 1);
    const QStringList legal = legalTexts(e, s);
    QVERIFY(legal.contains(QStringLiteral("recruit S-1 Horse ordinary")));
    QVERIFY(legal.contains(QStringLiteral("recruit S-1 Dragoons ordinary")));
    QVERIFY2(!legal.join(QLatin1Char(';')).contains(QStringLiteral("LightHorse")),
             qPrintable(legal.join(';')));
    QVERIFY(!applyText(e, s, QStringLiteral("recruit S-1 LightHorse"), &error));
    QVERIFY2(error.contains(QStringLiteral("Swedes (swedish): 7.3.2")), qPrintable(error));

    // A fixed army: the small generic battle's side 0 has a Light Horse.
    QFile f(kFixtures + QStringLiteral("tvbd-small-generic.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject generic = QJsonDocument::fromJson(f.readAll()).object();
    QString lightHorse;
    for (const QJsonValue& c : generic.value(QStringLiteral("commands")).toArray())
        for (const QJsonValue& u : c.toObject().value(QStringLiteral("units")).toArray())
            if (u.toObject().value(QStringLiteral("type")).toString() == QLatin1String("LightHorse"))
                lightHorse = u.toObject().value(QStringLiteral("id")).toString();
    QVERIFY(!lightHorse.isEmpty());
    auto load = [&](const char* nat0, BattleState* out) {
        QJsonObject r = generic;
        r.insert(QStringLiteral("sides"), QJsonArray{side("Imperialists", nat0), side("Swedes", "swedish")});
        return scenarioFromJson(r, QStringLiteral("generic.json"), *rules, out, &error);
    };
    BattleState t;
    for (const char* ok : {"imperial", "bavarian", "league", "spanish"})
        QVERIFY2(load(ok, &t), qPrintable(error));
    QVERIFY2(load(nullptr, &t), qPrintable(error)); // no nationality: not checked
    for (const char* barred : {"swedish", "saxon", "hungarian", "spanishInIberia"}) {
        QVERIFY(!load(barred, &t));
        for (const QString& part :
             QStringList{QStringLiteral("generic.json: commands["), QStringLiteral("side 0"),
                         QStringLiteral("'%1' is Light Horse").arg(lightHorse), QStringLiteral("7.3.2"),
                         QString::fromLatin1(barred)})
            QVERIFY2(error.contains(part), qPrintable(error));
    }
    QVERIFY(!load("martian", &t));
    QVERIFY2(error.contains(QStringLiteral("sides[0].nationality: unknown nationality 'martian'")),
             qPrintable(error));
    // the army-list check (battle validate) says the same of a state that breaks it
    QVERIFY(load("imperial", &t));
    QVERIFY(armyListProblems(t, 0).isEmpty());
    t.nationality[0] = QStringLiteral("swedish");
    t.noLightHorse[0] = true;
    QVERIFY2(armyListProblems(t, 0)
                 .join(QLatin1Char(';'))
                 .contains(QStringLiteral("1 Light Horse in Imperialists "
                                          "(swedish): 7.3.2")),
             qPrintable(armyListProblems(t, 0).join(QLatin1Char(';'))));
    // the shipped scenarios name both sides' nationality (with its source) and keep the rule
    const QStringList shipped =
        QDir(kScenarios).entryList({QStringLiteral("tvbd-*.json")}, QDir::Files, QDir::Name);
    QVERIFY(shipped.size() >= 5);
    for (const QString& name : shipped) {
        BattleState x;
        QVERIFY2(loadScenario(kScenarios + name, *rules, &x, &error), qPrintable(error));
        QVERIFY2(!x.nationality[0].isEmpty() && !x.nationality[1].isEmpty(), qPrintable(name));
        for (int k = 0; k < 2; ++k)
            QVERIFY(
                !armyListProblems(x, k).join(QLatin1Char(';')).contains(QStringLiteral("Light Horse in")));
    }
}

// TVBD 16.3.2 with 16.3.1, 16.2 and 16.3.3: recruiting by coins, each unit at its quality's cost (raw 2,
// inferior 3, ordinary 4, superior 5; Large Pike+Shot 6/8/10; a Commander is ordinary: 4, a decision).
void TestTvbd::r16_3_2_recruitByCoins() {
    BattleState s;
    QString error;
    QVERIFY2(scenarioFromJson(recruitJson("coins", 40), QStringLiteral("x.json"), *rules, &s, &error),
             qPrintable(error));
    TvbdEngine e(*rules);
    e.start(s);
    QVERIFY2(applyText(e, s, QStringLiteral("recruit command"), &error), qPrintable(error));
    QCOMPARE(armyCoins(*rules, s, 0), 4);
    const QStringList legal = legalTexts(e, s);
    for (const char* want : {"recruit I-1 Horse superior", "recruit I-1 Horse inferior",
                             "recruit I-1 PikeShot inferior large", "recruit I-1 Rabble raw"})
        QVERIFY2(legal.contains(QLatin1String(want)), want);
    QVERIFY(!legal.contains(QStringLiteral("recruit I-1 Cannon superior")));
    QVERIFY2(applyText(e, s, QStringLiteral("recruit I-1 PikeShot superior large"), &error),
             qPrintable(error));
    QCOMPARE(s.units.last().startResolve, 10); // 16.3.3
    QCOMPARE(s.originalUnits[0], 3);           // a Large Pike+Shot counts 2 units (16.2)
    QCOMPARE(armyCoins(*rules, s, 0), 14);
    for (const char* a : {"recruit I-1 Horse superior", "recruit I-1 Cannon"})
        QVERIFY2(applyText(e, s, QLatin1String(a), &error), qPrintable(error));
    QCOMPARE(armyCoins(*rules, s, 0), 21);
    QCOMPARE(s.units.last().quality, Quality::Raw); // Cannon are raw
    for (int i = 0; i < 3; ++i)
        QVERIFY2(applyText(e, s, QStringLiteral("recruit I-1 Horse superior"), &error), qPrintable(error));
    QCOMPARE(armyCoins(*rules, s, 0), 36);
    // a second command (4 coins) could not be brought to 3 units with the 0 coins left
    QVERIFY(!applyText(e, s, QStringLiteral("recruit command"), &error));
    QVERIFY(error.contains(QStringLiteral("could no longer be completed")));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QVERIFY(
        s.setup.secretLog[0].join(QLatin1Char('\n')).contains(QStringLiteral("(36 coins)"))); // 10.2 secret
}

// TVBD 16.4 aggressive attacker: in a pick-up game the attacker may take bonus units (small game 2, or 8
// coins; big 4; giant 6, 16.9), all Pike+Shot and/or Horse, for a time limit of 8 turns.
void TestTvbd::r16_4_aggressiveAttacker() {
    BattleState s;
    QString error;
    QVERIFY2(scenarioFromJson(recruitJson("units", 10, {{QStringLiteral("aggressiveAttacker"), true}}),
                              QStringLiteral("x.json"), *rules, &s, &error),
             qPrintable(error));
    QCOMPARE(s.turnLimit, 10); // offered, not yet taken
    TvbdEngine e(*rules);
    e.start(s);
    wp::rules::Rng rng(3);
    for (int n = 0; n < 200 && s.setup.stage == SetupStage::Recruit; ++n)
        QVERIFY2(e.apply(s, chooseSetupAction(e, s, rng), &error), qPrintable(error));
    QCOMPARE(s.setup.stage, SetupStage::Aggressive);
    QCOMPARE(e.actor(s), 0); // the attacker
    QVERIFY(e.prompt(s).startsWith(QStringLiteral("16.4")));
    QCOMPARE(legalTexts(e, s), (QStringList{QStringLiteral("aggressive"), QStringLiteral("end")}));
    BattleState declined = s;
    QVERIFY2(applyText(e, declined, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(declined.turnLimit, 10);
    QVERIFY(logHas(declined, QStringLiteral("16.4 Imperialists (attacker) take no bonus units")));
    QVERIFY2(applyText(e, s, QStringLiteral("aggressive"), &error), qPrintable(error));
    QCOMPARE(s.turnLimit, 8);
    QCOMPARE(s.setup.bonusUnits[0], 2);
    for (const TAction& a : e.legalActions(s))
        QVERIFY(a.kind == TAction::End || a.recruitType == UnitType::PikeShot ||
                a.recruitType == UnitType::Horse);
    const QString cmd = s.commands[0].id;
    QVERIFY(!applyText(e, s, QStringLiteral("recruit %1 Cannon").arg(cmd), &error));
    QVERIFY2(error.contains(QStringLiteral("16.4")), qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("recruit %1 Horse").arg(cmd), &error), qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("recruit %1 PikeShot").arg(cmd), &error), qPrintable(error));
    QCOMPARE(legalTexts(e, s), QStringList{QStringLiteral("end")});
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(s.originalUnits[0], 12);
    QVERIFY(armyListProblemsWithBudget(*rules, s, 0).isEmpty()); // 10 + 2 bonus units
    // a scenario's fixed armies: the option is the scenario's (the attacker took the bonus): 8 turns
    BattleState fixed;
    QJsonObject root = setupJson("tvbd-small-generic.json", false, false);
    root.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("aggressiveAttacker"), true}});
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &fixed, &error), qPrintable(error));
    QCOMPARE(fixed.turnLimit, 8);
    QVERIFY(!fixed.setup.aggressiveOffered);
}

// TVBD 10.5 scouting benefit 1: with armies the players recruited, the side with the scouting advantage may
// spend a point to organise its commands after seeing the enemy's (units move between its commands, each
// once, Commanders stay, every command keeps 3-8 units); the points left are delays.
void TestTvbd::r10_5_scoutingBenefit1() {
    BattleState s;
    QString error;
    QVERIFY2(scenarioFromJson(recruitJson("units", 12), QStringLiteral("x.json"), *rules, &s, &error),
             qPrintable(error));
    TvbdEngine e(*rules);
    e.start(s);
    for (const char* a :
         {"recruit command", "recruit I-1 Dragoons", "recruit I-1 Dragoons", "recruit I-1 Cannon",
          "recruit I-1 Horse", "recruit I-1 Horse", "recruit command", "recruit I-2 Horse",
          "recruit I-2 Horse", "recruit I-2 Horse", "end", "recruit command", "recruit S-1 Cannon",
          "recruit S-1 PikeShot", "recruit S-1 PikeShot"})
        QVERIFY2(applyText(e, s, QLatin1String(a), &error), qPrintable(QLatin1String(a) + error));
    // The Imperialists roll 2 dice (two Dragoons), the Swedes none: two hits, two points of advantage. The
    // roll is made when the deployment begins: here right after recruiting (the attacker is named, the
    // terrain is the scenario's).
    s.scripted = {6, 5};
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(s.setup.scoutDelays[0], 2);
    QCOMPARE(s.setup.stage, SetupStage::Organise);
    QCOMPARE(e.actor(s), 0);
    QVERIFY(e.prompt(s).startsWith(QStringLiteral("10.5")));
    const QStringList legal = legalTexts(e, s);
    QVERIFY(legal.contains(QStringLiteral("assign I1 I-2"))); // a Dragoons from I-1 (6 units) to I-2 (4)
    QVERIFY(legal.contains(QStringLiteral("assign I5 I-2")));
    QVERIFY(legal.contains(QStringLiteral("assign I6 I-1"))); // a Horse of I-2 to I-1
    for (const QString& l : legal)
        QVERIFY2(!l.startsWith(QLatin1String("assign IC")), qPrintable(l)); // Commanders stay
    QCOMPARE(legal.last(), QStringLiteral("end"));
    QVERIFY(!applyText(e, s, QStringLiteral("assign IC1 I-2"), &error));
    QVERIFY(!applyText(e, s, QStringLiteral("assign S1 S-1"), &error)); // not the other side's
    QVERIFY2(applyText(e, s, QStringLiteral("assign I1 I-2"), &error), qPrintable(error));
    QCOMPARE(s.setup.scoutDelays[0], 1); // one point spent on benefit 1
    QCOMPARE(s.units[s.indexOf(QStringLiteral("I1"))].command, 1);
    QCOMPARE(s.commands[0].initialUnits, 5);
    QCOMPARE(s.commands[1].initialUnits, 5);
    QVERIFY(logHas(s, QStringLiteral("10.5 Imperialists use scouting benefit 1")));
    QVERIFY(!applyText(e, s, QStringLiteral("assign I1 I-1"), &error)); // each unit once
    QVERIFY2(applyText(e, s, QStringLiteral("assign I2 I-2"), &error), qPrintable(error));
    QCOMPARE(s.setup.scoutDelays[0], 1); // further moves are the same benefit
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QVERIFY(
        logHas(s, QStringLiteral("10.5 Imperialists have organised their commands: I-1: Commander, Cannon, "
                                 "2 Horse; I-2: Commander, 2 Dragoons, 3 Horse")));
    QCOMPARE(s.setup.stage, SetupStage::Deploy); // 10.6, the defender (Swedes) first
    QCOMPARE(e.actor(s), 1);
    QVERIFY(armyListProblems(s, 0).isEmpty());
    // a scenario's fixed commands: no benefit 1
    BattleState fixed;
    QVERIFY2(setupState(*rules, "tvbd-small-generic.json", false, true, 0, &fixed, &error),
             qPrintable(error));
    e.start(fixed);
    QVERIFY(fixed.setup.stage != SetupStage::Organise);
}

namespace {
// The white-mountain battle (big table, 3 x 2 sectors) on terrain cards with 16.7 two streams, the cards set
// by the test; the defender (side 1) to make the second-stream decision (or, with no two streams, the
// 16.6.5 adjustment).
bool twoStreamState(const TvbdRules& rules, const QList<TerrainCard>& cards, BattleState* s, QString* error) {
    QJsonObject root = setupJson("tvbd-white-mountain.json", false, false);
    root.insert(QStringLiteral("setup"), QJsonObject{{QStringLiteral("terrain"), QStringLiteral("cards")}});
    root.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("twoStreams"), true}});
    root.insert(QStringLiteral("attacker"), 0);
    if (!scenarioFromJson(root, QStringLiteral("x.json"), rules, s, error))
        return false;
    TvbdEngine(rules).start(*s);
    s->setup.cards = cards;
    s->setup.cardSteps = {CardDefenderAdjust, CardSecondStream};
    s->stepSide = 1;
    return true;
}
TerrainCard card(const char* type, const char* size, int orientation) {
    return TerrainCard{QLatin1String(type), QLatin1String(size), orientation};
}
TerrainSpec specById(const BattleState& s, const QString& id) {
    for (const TerrainSpec& t : s.setup.specs)
        if (t.id == id)
            return t;
    return {};
}
} // namespace

// TVBD 16.7 two streams: when two stream cards come up the defender replaces zero, one or both with bend
// cards (any orientation) so that they form a T (two straights at right angles), h (a straight and a bend
// curving towards it), L (lined up), "| (" (curving away) or ") (" (two bends curving away from each other).
// The streams' geometry is a decision (docs/tvbd.md): straights through their sectors' middles from edge to
// edge, a bend turning a right angle at its sector's middle with its arms running to the table edges.
void TestTvbd::r16_7_twoStreams() {
    TvbdEngine e(*rules);
    QString error;
    // Sectors (3 x 2, from the top left): 1 2 3 on the row y 15-30, 4 5 6 on the row y 0-15.
    BattleState s;
    // T: a straight across the table in sector 1 and one along it in sector 6
    QVERIFY2(twoStreamState(*rules,
                            {card("stream", "medium", 0), {}, {}, {}, {}, card("stream", "medium", 1)}, &s,
                            &error),
             qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error)); // 16.6.5 passed
    QVERIFY(e.prompt(s).startsWith(QStringLiteral("16.7")));
    QStringList legal = legalTexts(e, s);
    QVERIFY(legal.contains(QStringLiteral("end")));
    QVERIFY(legal.contains(QStringLiteral("card bend 6 0")));
    QVERIFY(!legal.contains(QStringLiteral("card open 6"))); // 16.7 replaces 16.6.6's open card
    BattleState t = s;
    QVERIFY2(applyText(e, t, QStringLiteral("end"), &error), qPrintable(error));
    QVERIFY(logHas(t, QStringLiteral("shape T")));
    QCOMPARE(t.setup.stage, SetupStage::Roads);
    QCOMPARE(specById(t, QStringLiteral("c1")).points, (QList<Vec2>{{0, 22.5}, {45, 22.5}}));   // the bar
    QCOMPARE(specById(t, QStringLiteral("c6")).points, (QList<Vec2>{{37.5, 22.5}, {37.5, 0}})); // the stem
    // h: the later card becomes a bend whose arm across the bar reaches it (orientation 1: arms up and left)
    t = s;
    QVERIFY2(applyText(e, t, QStringLiteral("card bend 6 1"), &error), qPrintable(error));
    QVERIFY(logHas(t, QStringLiteral("shape h")));
    QVERIFY(legalTexts(e, t).contains(QStringLiteral("end")));
    QVERIFY2(applyText(e, t, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(specById(t, QStringLiteral("c6")).points, (QList<Vec2>{{37.5, 22.5}, {37.5, 7.5}, {0, 7.5}}));
    // "| (": the bend's arm across points away from the straight (orientation 2: left and down)
    t = s;
    QVERIFY2(applyText(e, t, QStringLiteral("card bend 6 2"), &error), qPrintable(error));
    QVERIFY(logHas(t, QStringLiteral("shape | (")));
    // no ") (" can follow: a bend of card 1 would need an arm pointing away from card 6 and card 6 has none
    QCOMPARE(legalTexts(e, t), QStringList{QStringLiteral("end")});
    QVERIFY2(applyText(e, t, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(specById(t, QStringLiteral("c6")).points, (QList<Vec2>{{0, 7.5}, {37.5, 7.5}, {37.5, 0}}));
    QCOMPARE(specById(t, QStringLiteral("c1")).points.size(), 2);
    // two parallel straights are no allowed shape: the defender must bend one
    QVERIFY2(twoStreamState(*rules,
                            {card("stream", "medium", 0), {}, {}, {}, {}, card("stream", "medium", 2)}, &s,
                            &error),
             qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    legal = legalTexts(e, s);
    QVERIFY(!legal.contains(QStringLiteral("end")));
    QCOMPARE(legal.size(), 8); // either card, any of 4 orientations
    QVERIFY(!applyText(e, s, QStringLiteral("end"), &error));
    // ") (": both bends, each with an arm pointing away from the other
    QVERIFY2(applyText(e, s, QStringLiteral("card bend 6 0"), &error), qPrintable(error)); // right and up
    QVERIFY(legalTexts(e, s).contains(QStringLiteral("card bend 1 2")));                   // left and down
    QVERIFY(!legalTexts(e, s).contains(QStringLiteral("card bend 1 0"))); // right: towards it
    QVERIFY(!applyText(e, s, QStringLiteral("card bend 1 0"), &error));
    QVERIFY2(applyText(e, s, QStringLiteral("card bend 1 2"), &error), qPrintable(error));
    QVERIFY(logHas(s, QStringLiteral("shape ) (")));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(specById(s, QStringLiteral("c1")).points, (QList<Vec2>{{0, 22.5}, {7.5, 22.5}, {7.5, 0}}));
    QCOMPARE(specById(s, QStringLiteral("c6")).points, (QList<Vec2>{{45, 7.5}, {37.5, 7.5}, {37.5, 30}}));
    // L: the bend's arm lies along the straight: one stream turning at the bend
    QVERIFY2(twoStreamState(*rules,
                            {card("stream", "medium", 0), {}, card("stream", "medium", 0), {}, {}, {}}, &s,
                            &error),
             qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("card bend 3 1"), &error), qPrintable(error)); // up and left
    QVERIFY(logHas(s, QStringLiteral("shape L")));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(specById(s, QStringLiteral("c1")).type, QString()); // the straight is the bend's arm
    QCOMPARE(specById(s, QStringLiteral("c3")).points, (QList<Vec2>{{37.5, 30}, {37.5, 22.5}, {0, 22.5}}));
    // 16.6.7 with a bend: a large wood on the bend's arm is split into two medium woods clear of the water,
    // and a road crossing two legs of the stream gets a bridge at each crossing
    QVERIFY2(
        twoStreamState(
            *rules,
            {card("stream", "medium", 0), {}, {}, {}, card("woods", "large", 0), card("stream", "medium", 0)},
            &s, &error),
        qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("card bend 6 2"), &error), qPrintable(error)); // arm along y 7.5
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    const TerrainSpec wa = specById(s, QStringLiteral("c5a")), wb = specById(s, QStringLiteral("c5b"));
    QCOMPARE(wa.size, QStringLiteral("medium"));
    QCOMPARE(wb.size, QStringLiteral("medium"));
    QVERIFY(wa.centre.y < 7.5 && wb.centre.y > 7.5);
    const TerrainFeature water = terrainFeature(*rules, specById(s, QStringLiteral("c6")));
    for (const TerrainSpec& w : {wa, wb})
        for (const Polygon& piece : water.pieces)
            QVERIFY(!overlaps(terrainFeature(*rules, w).pieces.first(), piece, 0.01));
    QVERIFY2(applyText(e, s, QStringLiteral("place road 41,0 41,30"), &error), qPrintable(error));
    int bridges = 0;
    for (const TerrainFeature& f : s.terrain)
        bridges += f.type == QLatin1String("bridge");
    QCOMPARE(bridges, 1); // the road meets the bar (y 22.5) only: the bend's arm ends at x 37.5
    QVERIFY2(applyText(e, s, QStringLiteral("place road 12,30 12,0"), &error), qPrintable(error));
    bridges = 0;
    for (const TerrainFeature& f : s.terrain)
        bridges += f.type == QLatin1String("bridge");
    QCOMPARE(bridges, 3); // and this one both streams
}

// TVBD 16.6.8: in a terrain-card game the roads avoid other terrain (they pass through or end in villages and
// towns, cross water at a bridge and meet other roads); the first runs from a table edge to the opposite one;
// every village and town has a road through it or ending in it.
void TestTvbd::r16_6_8_roadsAvoidTerrain() {
    TvbdEngine e(*rules);
    QString error;
    BattleState s;
    // a large wood in sector 2 (centre 22.5, 22.5) and a medium village in sector 5 (centre 22.5, 7.5)
    QVERIFY2(twoStreamState(*rules, {{}, card("woods", "large", 0), {}, {}, card("village", "medium", 0), {}},
                            &s, &error),
             qPrintable(error));
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QCOMPARE(s.setup.stage, SetupStage::Roads);
    QVERIFY(!applyText(e, s, QStringLiteral("place road 0,22.5 45,22.5"), &error)); // through the wood
    QVERIFY2(error.contains(QStringLiteral("16.6.8 roads must avoid other terrain (c2)")), qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("place road 0,12 30,12"), &error)); // not edge to opposite edge
    QVERIFY2(error.contains(QStringLiteral("16.6.8 the first road")), qPrintable(error));
    // every listed road is clear of the wood and the first runs edge to opposite edge
    const Polygon wood = terrainFeature(*rules, specById(s, QStringLiteral("c2"))).pieces.first();
    const QList<TAction> roads = e.legalActions(s);
    QVERIFY(roads.size() > 1);
    bool throughVillage = false;
    for (const TAction& a : roads) {
        if (a.kind != TAction::Place)
            continue;
        const QList<Vec2>& p = a.terrain.points;
        for (qsizetype i = 1; i < p.size(); ++i)
            QVERIFY(!overlaps(thickSegment(p[i - 1], p[i], 1), wood, 0.01));
        const bool across = (p.first().x == 0 && p.last().x == 45) || (p.first().x == 45 && p.last().x == 0);
        const bool along = (p.first().y == 0 && p.last().y == 30) || (p.first().y == 30 && p.last().y == 0);
        QVERIFY(across || along);
        throughVillage =
            throughVillage ||
            segmentCrosses(terrainFeature(*rules, specById(s, QStringLiteral("c5"))).pieces.first(),
                           p.first(), p.last()) ||
            p.size() > 2;
    }
    QVERIFY(throughVillage);
    // a road of several legs along the edge of the table, clear of both features
    QVERIFY2(applyText(e, s, QStringLiteral("place road 0,13 22.5,13 45,13.5"), &error), qPrintable(error));
    QCOMPARE(actionText(s,
                        [&] {
                            TAction a;
                            parseAction(s, QStringLiteral("place road 0,13 22.5,13 45,13.5"), &a, &error);
                            return a;
                        }()),
             QStringLiteral("place road 0,13 22.5,13 45,13.5"));
    // the village has no road yet: end is refused while a road can reach it; a spur from it is listed
    QVERIFY(!applyText(e, s, QStringLiteral("end"), &error));
    QVERIFY2(error.contains(QStringLiteral("c5 needs a road")), qPrintable(error));
    QVERIFY(!applyText(e, s, QStringLiteral("place road 22.5,7.5 22.5,10"), &error)); // ends nowhere
    QVERIFY2(applyText(e, s, QStringLiteral("place road 22.5,7.5 22.5,13"), &error),
             qPrintable(error)); // a spur
    QVERIFY2(applyText(e, s, QStringLiteral("end"), &error), qPrintable(error));
    QVERIFY(logHas(s, QStringLiteral("16.6.8")));
}

// The army size a scenario gives (armySize: 10.1 units or 16.3.2 coins) is checked in the army-list check;
// the scenario errors of the set-up steps 1.1 and 1.2 name the file, the place and the rule.
void TestTvbd::armySizeBudget() {
    QString error;
    BattleState s;
    QJsonObject root = setupJson("tvbd-small-generic.json", false, false);
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    const int coins = armyCoins(*rules, s, 0);
    QVERIFY(armyListProblemsWithBudget(*rules, s, 0).isEmpty()); // no budget: the army list alone
    root.insert(QStringLiteral("armySize"), QJsonObject{{QStringLiteral("coins"), coins}});
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    QVERIFY(armyListProblemsWithBudget(*rules, s, 0).isEmpty());
    root.insert(QStringLiteral("armySize"), QJsonObject{{QStringLiteral("coins"), coins - 1}});
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    QVERIFY(
        armyListProblemsWithBudget(*rules, s, 0).join(QLatin1Char(';')).contains(QStringLiteral("16.3.2")));
    root.insert(QStringLiteral("armySize"), QJsonObject{{QStringLiteral("units"), s.originalUnits[0] - 1}});
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    QVERIFY(armyListProblemsWithBudget(*rules, s, 0).join(QLatin1Char(';')).contains(QStringLiteral("10.1")));
    // Commanders count as units and cost as ordinary units (4 coins)
    int units = 0, commanders = 0;
    for (const Unit& u : s.units)
        if (u.side == 0) {
            units += u.large ? 2 : 1;
            commanders += u.type == UnitType::Commander;
        }
    QCOMPARE(s.originalUnits[0], units);
    QVERIFY(commanders > 0);
    int expect = 0;
    for (const Unit& u : s.units)
        if (u.side == 0)
            expect += u.type == UnitType::Commander ? 4 : rules->coins(u.type, u.quality, u.large);
    QCOMPARE(coins, expect);
    // errors
    auto bad = [&](QJsonObject r, const char* path) {
        BattleState x;
        QString err;
        const bool ok = scenarioFromJson(r, QStringLiteral("x.json"), *rules, &x, &err);
        return !ok && err.contains(QLatin1String(path)) ? QString() : QStringLiteral("accepted or: ") + err;
    };
    QJsonObject r1 = root;
    r1.insert(QStringLiteral("armySize"),
              QJsonObject{{QStringLiteral("units"), 10}, {QStringLiteral("coins"), 40}});
    QVERIFY2(bad(r1, "x.json: armySize").isEmpty(), qPrintable(bad(r1, "")));
    QJsonObject r2 = recruitJson("units", 10);
    r2.insert(QStringLiteral("commands"), root.value(QStringLiteral("commands")));
    QVERIFY(bad(r2, "x.json: commands: 10.2").isEmpty());
    QJsonObject r3 = recruitJson("units", 10);
    r3.insert(QStringLiteral("setup"), QJsonObject{{QStringLiteral("armies"), QStringLiteral("players")}});
    QVERIFY(bad(r3, "setup.armies: 10.2").isEmpty()); // recruited armies are deployed by the players
    QJsonObject r4 = recruitJson("units", 10);
    QJsonObject setup = r4.value(QStringLiteral("setup")).toObject();
    setup.insert(QStringLiteral("gameSize"), QStringLiteral("players"));
    r4.insert(QStringLiteral("setup"), setup);
    QVERIFY(bad(r4, "armySize: 10.1").isEmpty()); // the players agree it
    QJsonObject r5 = root;
    r5.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("twoStreams"), true}});
    QVERIFY(bad(r5, "options.twoStreams: 16.7").isEmpty());
    QJsonObject r6 = root;
    r6.insert(QStringLiteral("setup"), QJsonObject{{QStringLiteral("armies"), QStringLiteral("maybe")}});
    QVERIFY(bad(r6, "setup.armies").isEmpty());
}

// Random and simple play through the whole set-up 1.1-1.7 of the shipped pick-up from scratch (game size,
// recruiting, the aggressive attacker, terrain cards with two streams, scouting, deployment) and the battle;
// the log replays exactly; every army is legal within its budget.
void TestTvbd::recruitRandomPlayAndReplay() {
    BattleState s;
    QString error;
    QVERIFY2(loadScenario(kScenarios + QStringLiteral("tvbd-recruit.json"), *rules, &s, &error),
             qPrintable(error));
    TvbdEngine e(*rules);
    QSet<QString> sizes;
    for (quint64 seed = 1; seed <= 4; ++seed)
        for (Policy pol : {Policy::Random, Policy::Simple}) {
            TacticalGame g(e, s, seed);
            wp::rules::Rng rng(seed * 7);
            int n = 0;
            while (!g.state().over() && n < 20000) {
                const QList<TAction> l = e.legalActions(g.state());
                QVERIFY2(!l.isEmpty(), qPrintable(e.prompt(g.state())));
                const TAction a = choosePolicyAction(e, g.state(), pol, rng);
                QVERIFY(l.contains(a));
                QVERIFY2(g.apply(a, &error), qPrintable(error));
                ++n;
            }
            QVERIFY(g.state().over());
            for (int side = 0; side < 2; ++side)
                QVERIFY2(
                    armyListProblemsWithBudget(*rules, g.state(), side).isEmpty(),
                    qPrintable(armyListProblemsWithBudget(*rules, g.state(), side).join(QLatin1Char(';'))));
            for (const char* rule : {"10.1", "10.2", "1.3", "16.4", "16.6.3", "16.6.8", "10.6"})
                QVERIFY2(logHas(g.state(), QLatin1String(rule)), rule);
            sizes.insert(g.state().sizeName);
            TacticalGame replay(e, s, seed);
            for (const QString& text : g.actionTexts())
                QVERIFY2(replay.applyText(text, &error), qPrintable(text + QStringLiteral(": ") + error));
            QCOMPARE(replay.state().log, g.state().log);
        }
    QVERIFY(sizes.size() > 1); // random proposals vary the game
}

// TVBD 8.2: terrain classes: difficult (villages, towns, fields, woods, rough ground, difficult hills,
// streams, bridges, fords), open (gentle hills, roads on open ground), impassable (rivers); blocking line of
// sight; Cannon cross water only at bridges (12.1.6).
void TestTvbd::r8_2_terrainClasses() {
    for (const char* d :
         {"village", "town", "field", "woods", "rough", "difficultHill", "stream", "bridge", "ford"})
        QVERIFY2(rules->terrain.value(QLatin1String(d)).cls == TerrainClass::Difficult, d);
    for (const char* o : {"gentleHill", "road"})
        QVERIFY2(rules->terrain.value(QLatin1String(o)).cls == TerrainClass::Open, o);
    QVERIFY(rules->terrain.value(QStringLiteral("river")).cls == TerrainClass::Impassable);
    QVERIFY(!rules->terrain.value(QStringLiteral("rough")).blocksLOS);
    QVERIFY(rules->terrain.value(QStringLiteral("gentleHill")).blocksLOS);
    QVERIFY(rules->terrain.value(QStringLiteral("bridge")).cannonMayCross);
    QVERIFY(!rules->terrain.value(QStringLiteral("ford")).cannonMayCross);
    // any part of a unit in difficult terrain puts the whole unit in it
    Pos p(*rules);
    const int u = p.add(0, UnitType::PikeShot, 10, 10, 90);
    p.terrain(QStringLiteral("rough"), rectangle({11.9, 10}, 2, 2, 90)); // overlaps the stand's right end
    TvbdEngine e(*rules);
    QVERIFY(e.inDifficult(p.s, u));
    p.s.units[u].pose.c = {5, 10};
    QVERIFY(!e.inDifficult(p.s, u));
    // no part of a unit may enter impassable terrain
    p.terrain(QStringLiteral("river"), thickSegment({0, 13}, {45, 13}, 2.5));
    QString why;
    QVERIFY(!e.checkMove(p.s, u, mv(MoveKind::Straight, 0, 2), &why).has_value());
    QVERIFY(e.checkMove(p.s, u, mv(MoveKind::Straight, 0, 0.5)).has_value());
}

// TVBD 10.7 (step 1.7) bombardment: the defender's unlimbered Cannon shoot first, then the attacker's; each
// shoots once or not at all, without moving or pivoting; limbered Cannon and other units do not; the
// shooting markers are removed once all have shot.
void TestTvbd::r10_7_bombardment() {
    Pos p(*rules); // side 0 attacks
    const int ac = p.add(0, UnitType::Cannon, 20, 5, 90);
    p.add(0, UnitType::PikeShot, 10, 23, 90); // in range of nothing that matters; never shoots in 1.7
    const int bc = p.add(1, UnitType::Cannon, 20, 25, 270);
    const int limbered = p.add(1, UnitType::Cannon, 30, 25, 270);
    p.s.units[limbered].limbered = true;
    p.add(1, UnitType::Shot, 12, 25, 270); // a Pike+Shot within 2 TUM: no bombardment by infantry
    TvbdEngine e(*rules);
    e.start(p.s);
    QCOMPARE(p.s.step, Step::Bombard);
    QCOMPARE(e.actor(p.s), 1); // the defender first
    QVERIFY(e.prompt(p.s).startsWith(QStringLiteral("1.7")));
    const QList<TAction> legal = e.legalActions(p.s);
    QVERIFY(legal.size() >= 2);
    for (const TAction& a : legal)
        QVERIFY2(a.kind == TAction::End || (a.kind == TAction::Shoot && a.unit == bc),
                 qPrintable(actionText(p.s, a)));
    p.s.scripted = {6, 1};
    QString error;
    QVERIFY2(applyText(e, p.s, QStringLiteral("shoot %1 %2").arg(p.s.units[ac].id, p.s.units[bc].id), &error),
             qPrintable(error));
    QCOMPARE(p.s.units[ac].resolve, 1); // 2d6 [6, 1]: one hit
    QCOMPARE(p.s.step, Step::Bombard);  // the attacker's Cannon next
    QCOMPARE(e.actor(p.s), 0);
    QVERIFY(p.s.units[bc].shotMarker);
    for (const TAction& a : e.legalActions(p.s))
        QVERIFY(a.kind == TAction::End || (a.kind == TAction::Shoot && a.unit == ac));
    p.s.scripted = {1, 1, 6, 6}; // (then the initiative: side 1 active)
    QVERIFY2(applyText(e, p.s, QStringLiteral("end"), &error), qPrintable(error)); // it need not shoot
    QCOMPARE(p.s.turn, 1);
    QVERIFY(!p.s.units[bc].shotMarker); // markers removed before turn 1
    QVERIFY(logHas(p.s, QStringLiteral("1.7 bombardment")));
}

// TVBD 12.1.5 with 16.3.1: ordinary units wheel, oblique, about face, turn, sidestep and move backward;
// inferior units may not oblique, sidestep or move backward (they may wheel, about face and turn); raw units
// (Rabble, Cannon) may only wheel.
void TestTvbd::r12_1_5_changeOfDirectionByQuality() {
    Pos p(*rules);
    const int ord = p.add(0, UnitType::Horse, 10, 10, 90);
    const int inf = p.add(0, UnitType::Horse, 20, 10, 90, -1, Quality::Inferior);
    const int raw = p.add(0, UnitType::Rabble, 30, 10, 90);
    p.add(1, UnitType::PikeShot, 40, 28, 270);
    TvbdEngine e(*rules);
    const MoveSpec oblique = mv(MoveKind::Oblique, 30, 2), side = mv(MoveKind::Sideways, 1),
                   back = mv(MoveKind::Backward, 0, 1), wheel = mv(MoveKind::Wheel, 30, 1),
                   about = mv(MoveKind::AboutFace, 0, 0), turn = mv(MoveKind::Turn, 1);
    for (const MoveSpec& m : {oblique, side, back, wheel, about, turn})
        QVERIFY(e.checkMove(p.s, ord, m).has_value());
    QString why;
    for (const MoveSpec& m : {oblique, side, back}) {
        QVERIFY(!e.checkMove(p.s, inf, m, &why).has_value());
        QVERIFY2(why.startsWith(QStringLiteral("16.3")), qPrintable(why));
    }
    for (const MoveSpec& m : {wheel, about, turn})
        QVERIFY(e.checkMove(p.s, inf, m).has_value());
    for (const MoveSpec& m : {oblique, about, turn, side}) {
        QVERIFY(!e.checkMove(p.s, raw, m, &why).has_value());
        QVERIFY2(why.contains(QStringLiteral("may only wheel")), qPrintable(why));
    }
    QVERIFY(e.checkMove(p.s, raw, wheel).has_value());
    QCOMPARE(p.s.units[inf].startResolve, 2); // 16.3.1: inferior Horse, resolve 3 - 1
}

// TVBD 12.1.9: a Commander moves 8 TUM by any path, 3 TUM if any part of the move is in difficult terrain;
// it attaches by ending on a unit of its side (docs/tvbd.md decision 10).
void TestTvbd::r12_1_9_commanderMovement() {
    Pos p(*rules);
    const int c = p.add(0, UnitType::Commander, 10, 5, 90);
    const int h = p.add(0, UnitType::Horse, 16, 5, 90);
    p.add(1, UnitType::PikeShot, 40, 28, 270);
    TvbdEngine e(*rules);
    MoveSpec to = mv(MoveKind::To);
    to.to = {10, 13};
    QVERIFY(e.checkMove(p.s, c, to).has_value()); // 8 TUM
    to.to = {10, 13.2};
    QString why;
    QVERIFY(!e.checkMove(p.s, c, to, &why).has_value());
    QVERIFY2(why.contains(QStringLiteral("allowance 8")), qPrintable(why));
    to.to = {5, 11}; // turns are free: any direction (7.8 TUM)
    QVERIFY(e.checkMove(p.s, c, to).has_value());
    p.terrain(QStringLiteral("woods"), ellipse({10, 9}, 2, 1.5, 0));
    to.to = {10, 13};
    QVERIFY(!e.checkMove(p.s, c, to, &why).has_value()); // through the wood: 3 TUM
    QVERIFY2(why.contains(QStringLiteral("allowance 3")), qPrintable(why));
    to.to = {10, 7.5}; // (ends in the wood: within 3 TUM)
    QVERIFY(e.checkMove(p.s, c, to).has_value());
    const auto att = e.checkMove(p.s, c, mv(MoveKind::Attach, 0, 0, h));
    QVERIFY(att.has_value());
    QCOMPARE(att->c, p.s.units[h].pose.c);
    QVERIFY(!e.checkMove(p.s, c, mv(MoveKind::Attach, 0, 0, 2)).has_value()); // not an enemy
}

// TVBD 12.2.5 range (Horse and Light Horse 2 TUM, infantry 4, Cannon unlimited), 12.2.1 the shooting marker,
// 12.2.14 Cannon move or shoot (a Cannon that moved or pivoted does not shoot; one that shot does not
// pivot), limbered Cannon never shoot.
void TestTvbd::r12_2_5_rangeMarkersCannonMoveOrShoot() {
    Pos p(*rules);
    const int horse = p.add(0, UnitType::Horse, 10, 10, 90);
    const int shot = p.add(0, UnitType::Shot, 20, 10, 90);
    const int cannon = p.add(0, UnitType::Cannon, 32, 5, 90);
    const int t1 = p.add(1, UnitType::PikeShot, 10, 13, 270); // 2 TUM from the Horse's front
    const int t2 = p.add(1, UnitType::PikeShot, 20, 15, 270); // 4 TUM from the Shot's front
    p.add(1, UnitType::PikeShot, 32, 28, 270);                // 22 TUM ahead of the Cannon
    TvbdEngine e(*rules);
    p.s.step = Step::Shoot; // whether a unit is offered a shot in a shooting step
    p.s.stepSide = 0;
    p.s.turn = 1;
    auto shoots = [&](int u) { return offered(e, p.s, TAction::Shoot, u); };
    QCOMPARE(e.shootTargets(p.s, horse), QList<int>{t1});
    QCOMPARE(e.shootTargets(p.s, shot), QList<int>{t2});
    QCOMPARE(e.shootTargets(p.s, cannon).size(), 1);
    QVERIFY(shoots(horse) && shoots(shot) && shoots(cannon));
    p.s.units[t1].pose.c.y = 13.2; // just beyond 2 TUM
    p.s.units[t2].pose.c.y = 15.2; // just beyond 4 TUM
    QVERIFY(e.shootTargets(p.s, horse).isEmpty());
    QVERIFY(e.shootTargets(p.s, shot).isEmpty());
    // 12.2.14: the Cannon that moved (pivoted) does not shoot this turn (a moved marker, 7.4)
    p.s.units[cannon].movedMarker = true;
    QVERIFY(!shoots(cannon));
    p.s.units[cannon].movedMarker = false;
    p.s.units[cannon].limbered = true; // 12.1.6 limbered Cannon do not shoot
    QVERIFY(!shoots(cannon));
    p.s.units[cannon].limbered = false;
    QVERIFY(shoots(cannon));
    // 12.2.1: a unit that shot gets a marker and shoots once a turn; a Cannon that shot does not pivot
    p.s.units[t2].pose.c.y = 15;
    p.s.scripted = {1, 1, 1, 1};
    e.resolveShot(p.s, t2, shot, {});
    QVERIFY(p.s.units[shot].shotMarker);
    QVERIFY(!shoots(shot));
    p.s.scripted = {1, 1};
    e.resolveShot(p.s, 5, cannon, {});
    QVERIFY(p.s.units[cannon].shotMarker);
    QVERIFY(!e.checkMove(p.s, cannon, mv(MoveKind::Pivot, 80)).has_value());
}

// TVBD 14.1.1-14.1.2: a formed unit may declare a charge only if it did not shoot, did not move backward (no
// moved marker), is not locked in melee and can contact an enemy with the 3 TUM charge move (a wheel at the
// start counts in it).
void TestTvbd::r14_1_2_chargingCriteria() {
    Pos p(*rules);
    const int h = p.add(0, UnitType::Horse, 10, 10, 90);
    const int far = p.add(0, UnitType::Horse, 25, 10, 90);
    const int t = p.add(1, UnitType::PikeShot, 10, 13.5, 270); // 2.5 TUM ahead
    p.add(1, UnitType::PikeShot, 25, 14.6, 270);               // 3.6 TUM ahead: out of reach
    TvbdEngine e(*rules);
    QCOMPARE(e.chargeOptions(p.s, h).size(), 1);
    QCOMPARE(e.chargeOptions(p.s, h).first().first, t);
    QVERIFY(e.chargeOptions(p.s, far).isEmpty());
    // declarations are listed in 5.1 only for units without shooting or moved markers
    p.s.step = Step::Declare;
    p.s.stepSide = 0;
    p.s.turn = 1;
    auto declares = [&](int u) { return offered(e, p.s, TAction::Charge, u); };
    QVERIFY(declares(h));
    p.s.units[h].shotMarker = true;
    QVERIFY(!declares(h));
    p.s.units[h].shotMarker = false;
    p.s.units[h].movedMarker = true;
    QVERIFY(!declares(h));
    p.s.units[h].movedMarker = false;
    p.s.units[t].pose.c.y = 11; // in contact: locked in melee
    QVERIFY(e.locked(p.s, h));
    QVERIFY(!declares(h));
}

// TVBD 14.3 evades: a charged Light Horse in open terrain that did not declare a charge may evade after a
// command check (Light Horse hit on 4+); it must end more than 3 TUM from its chargers and out of contact;
// a failed check receives the charge; the charge still happens (14.2).
void TestTvbd::r14_3_evades() {
    auto build = [&](Pos& p) {
        p.add(0, UnitType::Horse, 20, 10, 90);         // A0 charges
        p.add(1, UnitType::LightHorse, 20, 12.5, 270); // B1, 1.5 TUM ahead
        p.add(0, UnitType::Commander, 20, 4, 90);      // in command: no checks to declare
        p.add(1, UnitType::Commander, 27, 14, 270);
        p.s.commands[0].commander = 2;
        p.s.commands[1].commander = 3;
    };
    TvbdEngine e(*rules);
    QString error;
    // To the evade step: initiative to A (6, 1), nothing moves or shoots, A declares.
    auto toEvade = [&](Pos& p) {
        e.start(p.s);
        for (int guard = 0; guard < 20 && p.s.step != Step::Evade && p.s.turn <= 1; ++guard) {
            if (p.s.step == Step::Declare && e.actor(p.s) == 0 && p.s.units[0].chargeTarget < 0) {
                if (!applyText(e, p.s, QStringLiteral("charge A0 B1"), &error))
                    return false;
                continue;
            }
            if (!applyText(e, p.s, QStringLiteral("end"), &error))
                return false;
        }
        return p.s.step == Step::Evade;
    };
    Pos p(*rules);
    build(p);
    p.s.scripted = {6, 1};
    QVERIFY2(toEvade(p), qPrintable(error + e.prompt(p.s)));
    QCOMPARE(e.actor(p.s), 1);
    QVERIFY(e.prompt(p.s).contains(QStringLiteral("5.3")));
    QStringList legal = legalTexts(e, p.s);
    QVERIFY(legal.contains(QStringLiteral("stand B1")));
    QVERIFY(legal.contains(QStringLiteral("evade B1 aboutface 8")));
    QVERIFY(!legal.contains(QStringLiteral("end"))); // each charged Light Horse evades or stands
    QVERIFY(!applyText(e, p.s, QStringLiteral("evade B1 aboutface 1"), &error)); // within 3 TUM of A0
    QVERIFY2(error.contains(QStringLiteral("14.3")), qPrintable(error));
    QCOMPARE(legalTexts(e, p.s), legal); // a refused evade changes nothing: the unit may still evade or stand
    BattleState failed = p.s;
    p.s.scripted = {4, 1, 1}; // 3d6 (resolve 3), a 4 passes for Light Horse
    QVERIFY2(applyText(e, p.s, QStringLiteral("evade B1 aboutface 8"), &error), qPrintable(error));
    QVERIFY2(logHas(p.s, QStringLiteral("14.3 B1 evades")), qPrintable(p.s.log.join(QLatin1Char('\n'))));
    QVERIFY(logHas(p.s, QStringLiteral("12.1.2 command check B1: 3d6 [4,1,1] needing 4+: passed")));
    QVERIFY(logHas(p.s, QStringLiteral("14.4 A0 charges 3.00 TUM into the space B1 evaded from")));
    QVERIFY(p.s.units[1].pose.c.y > 20);   // turned about and moved away
    QVERIFY(e.contacts(p.s, 1).isEmpty()); // the charge went 3 TUM and stopped short
    failed.scripted = {3, 3, 1};
    QVERIFY2(applyText(e, failed, QStringLiteral("evade B1 aboutface 8"), &error), qPrintable(error));
    QVERIFY(logHas(failed, QStringLiteral("14.3 B1 fails to evade and receives the charge")));
    QVERIFY(!logHas(failed, QStringLiteral("evaded from")));
    // Light Horse in difficult terrain cannot evade: no evade decision at all
    Pos q(*rules);
    build(q);
    q.terrain(QStringLiteral("rough"), rectangle({20, 13}, 3, 2, 90));
    q.s.scripted = {6, 1};
    QVERIFY(!toEvade(q));
    QVERIFY(logHas(q.s, QStringLiteral("14.1 A0 declares a charge on B1")));
    QVERIFY(!logHas(q.s, QStringLiteral("14.3")));
}

// TVBD 14.5.7: Horse in difficult terrain melee with one die less (never below 1d6); 14.5.3: and hit only on
// 6 there.
void TestTvbd::r14_5_7_horseInDifficultTerrain() {
    Pos p(*rules);
    const int h = p.add(0, UnitType::Horse, 10, 10, 90);
    p.add(0, UnitType::Horse, 10, 8.5, 90); // support to-rear
    const int t = p.add(1, UnitType::Horse, 10, 11, 270);
    p.add(1, UnitType::Horse, 10, 12.5, 270);
    TvbdEngine e(*rules);
    const MeleeDice open = e.meleeDice(p.s, h, t, true);
    QCOMPARE(open.dice, 3);
    p.terrain(QStringLiteral("rough"), rectangle({10, 9.6}, 3, 1.5, 90));
    QVERIFY(e.inDifficult(p.s, h));
    const MeleeDice rough = e.meleeDice(p.s, h, t, true);
    QCOMPARE(rough.dice, 2);
    QCOMPARE(rough.toHit, 6);
    p.s.units[h].resolve = 1;
    QCOMPARE(e.meleeDice(p.s, h, t, true).dice, 1); // never below 1d6
}

// TVBD 14.5.9: an attached Commander adds one die hitting on 4+ to its unit's melee, and is checked for a
// casualty when the unit takes hits (12.2.16).
void TestTvbd::r14_5_9_commanderInMelee() {
    Pos p(*rules);
    const int a = p.add(0, UnitType::PikeShot, 10, 10, 90);
    const int c = p.add(0, UnitType::Commander, 10, 9.5, 90);
    p.s.units[c].attachedTo = a;
    p.s.commands[0].commander = c;
    const int b = p.add(1, UnitType::PikeShot, 10, 11, 270);
    p.s.units[b].resolve = 4;
    TvbdEngine e(*rules);
    // Pike+Shot 4d6 unsupported: 3d6 at 5+; the Commander's die at 4+; the enemy 3d6 (unsupported) at 5+
    p.s.scripted = {1, 1, 1, 4, 1, 1, 1};
    e.resolveMelee(p.s);
    QVERIFY2(logHas(p.s, QStringLiteral("Commander %1 [4] at 4+").arg(p.s.units[c].id)),
             qPrintable(p.s.log.join(QLatin1Char('\n'))));
    QCOMPARE(p.s.units[b].resolve, 3); // the Commander's 4 hit
}

// TVBD 15.1 (step 6.1): shooting and moved markers are removed in the morale phase.
void TestTvbd::r15_1_markersRemoved() {
    Pos p(*rules);
    const int u = p.add(0, UnitType::Shot, 10, 10, 90);
    const int v = p.add(1, UnitType::Shot, 30, 20, 270);
    p.s.units[u].shotMarker = true;
    p.s.units[v].movedMarker = true;
    p.s.originalUnits[0] = p.s.originalUnits[1] = 10;
    TvbdEngine e(*rules);
    e.morale(p.s);
    QVERIFY(!p.s.units[u].shotMarker);
    QVERIFY(!p.s.units[v].movedMarker);
}

// TVBD 16.8 shallow small tables (30 x 20, deployment 6 deep, the 2 x 1 card layout of option 1, its base
// edges empty) and 16.9 giant games (60 x 30, centre zone 30, 4 x 2 cards with two centre swaps each, 6
// bonus units).
void TestTvbd::r16_8_16_9_shallowAndGiantTables() {
    TvbdEngine e(*rules);
    QString error;
    QJsonObject root = setupJson("tvbd-small-generic.json", false, true);
    root.insert(QStringLiteral("size"), QStringLiteral("shallowSmall"));
    root.insert(QStringLiteral("setup"),
                QJsonObject{{QStringLiteral("terrain"), QStringLiteral("cards")},
                            {QStringLiteral("deployment"), QStringLiteral("players")}});
    root.insert(QStringLiteral("attacker"), 0);
    BattleState s;
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    QCOMPARE(s.tableD, 20.0);
    QCOMPARE(s.centreW, 16.0);
    e.start(s);
    QCOMPARE(s.setup.cardCols, 2);
    QCOMPARE(s.setup.cardRows, 1);
    wp::rules::Rng rng(1);
    for (int n = 0; n < 400 && s.step == Step::Setup; ++n)
        QVERIFY2(e.apply(s, chooseSetupAction(e, s, rng), &error), qPrintable(error));
    for (const TerrainSpec& t : s.setup.specs) // the cards' features lie in the middle 15 TUM
        if (t.shape != QLatin1String("line"))
            QVERIFY2(t.centre.y > 2.5 && t.centre.y < 17.5, qPrintable(t.id));
    for (const Unit& u : s.units) // 10.6 on a 20 TUM table: 6 TUM deep
        for (const Vec2& c : u.pose.corners())
            QVERIFY(u.side == 0 ? c.y <= 6 + 1e-6 : c.y >= 14 - 1e-6);
    // option 2: the 2 x 2 layout overhanging the base edges; the features are kept on the table
    QJsonObject setup = root.value(QStringLiteral("setup")).toObject();
    setup.insert(QStringLiteral("cardLayout"), QStringLiteral("2x2"));
    root.insert(QStringLiteral("setup"), setup);
    int features = 0;
    for (quint64 seed = 1; seed <= 5; ++seed) {
        QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
        TacticalGame g(e, s, seed);
        QCOMPARE(g.state().setup.cardRows, 2);
        wp::rules::Rng prng(seed);
        for (int n = 0; n < 400 && g.state().step == Step::Setup; ++n)
            QVERIFY2(g.apply(chooseSetupAction(e, g.state(), prng), &error), qPrintable(error));
        for (const TerrainFeature& f : g.state().terrain)
            for (const Polygon& piece : f.pieces)
                for (const Vec2& v : piece)
                    QVERIFY2(v.y >= -1e-6 && v.y <= 20 + 1e-6, qPrintable(f.id));
        features += int(g.state().setup.specs.size());
    }
    QVERIFY(features > 0);
    QJsonObject wrong = root;
    wrong.insert(QStringLiteral("size"), QStringLiteral("small"));
    QVERIFY(!scenarioFromJson(wrong, QStringLiteral("x.json"), *rules, &s, &error));
    QVERIFY2(error.contains(QStringLiteral("setup.cardLayout: 16.8")), qPrintable(error));
    root.insert(QStringLiteral("setup"),
                QJsonObject{{QStringLiteral("terrain"), QStringLiteral("cards")},
                            {QStringLiteral("deployment"), QStringLiteral("players")}});
    // giant
    root.insert(QStringLiteral("size"), QStringLiteral("giant"));
    QVERIFY2(scenarioFromJson(root, QStringLiteral("x.json"), *rules, &s, &error), qPrintable(error));
    QCOMPARE(s.tableW, 60.0);
    QCOMPARE(s.centreW, 30.0);
    e.start(s);
    QCOMPARE(s.setup.cardCols, 4);
    QCOMPARE(s.setup.cardRows, 2);
    QCOMPARE(s.setup.cardSteps.mid(0, 4), (QList<int>{CardCentreSwapDefender, CardCentreSwapAttacker,
                                                      CardCentreSwapDefender, CardCentreSwapAttacker}));
    QCOMPARE(rules->gameSizes.value(QStringLiteral("giant")).bonus, 6);
    QCOMPARE(rules->gameSizes.value(QStringLiteral("giant")).unitsMax, 60);
}

namespace {

TAction aiChoice(const TvbdEngine& e, const BattleState& s) {
    wp::rules::Rng rng(1);
    return choosePolicyAction(e, s, Policy::Tactical, rng);
}

} // namespace

// A short fuzz: positions reached by random play (and by the AI itself) on the small fixture and the
// Breitenfeld scenario; at every one the AI's choice is one of the engine's legal actions.
void TestTvbd::aiChoosesOnlyLegalActions() {
    TvbdEngine e(*rules);
    QString error;
    for (const QString& file :
         {kFixtures + QStringLiteral("tvbd-small-generic.json"),
          QStringLiteral(WESTPHALIA_TEST_DIR "/../scenarios/battles/tvbd-breitenfeld.json")}) {
        BattleState start;
        QVERIFY2(loadScenario(file, *rules, &start, &error), qPrintable(error));
        int checked = 0;
        for (quint64 seed = 1; seed <= 4; ++seed) {
            TacticalGame g(e, start, seed);
            wp::rules::Rng rng(seed);
            // random play for a while, then the AI (as both sides) with every choice checked
            const int randomActions = int(seed * 37 % 150);
            for (int k = 0; k < randomActions && !g.state().over(); ++k)
                QVERIFY(g.apply(choosePolicyAction(e, g.state(), Policy::Random, rng), &error));
            for (int k = 0; k < 120 && !g.state().over(); ++k) {
                const TAction a = choosePolicyAction(e, g.state(), Policy::Tactical, rng);
                QVERIFY2(isLegal(e, g.state(), a),
                         qPrintable(file + QStringLiteral(": ") + actionText(g.state(), a)));
                QVERIFY2(g.apply(a, &error), qPrintable(error));
                ++checked;
            }
        }
        QVERIFY(checked > 200);
    }
}

// The AI is a function of the state: the same battle twice gives the same log; its choice does not depend on
// the policy's random numbers.
void TestTvbd::aiIsDeterministic() {
    TvbdEngine e(*rules);
    BattleState start;
    QString error;
    QVERIFY2(loadScenario(kFixtures + QStringLiteral("tvbd-small-generic.json"), *rules, &start, &error),
             qPrintable(error));
    const std::array<Policy, 2> pol{Policy::Tactical, Policy::Simple};
    TacticalGame a(e, start, 5), b(e, start, 5);
    const AutoResult ra = autoResolve(a, pol, 5), rb = autoResolve(b, pol, 5);
    QVERIFY2(ra.winner >= 0, qPrintable(ra.reason));
    QCOMPARE(a.state().log, b.state().log);
    QCOMPARE(a.actionTexts(), b.actionTexts());
    QCOMPARE(ra.winner, rb.winner);
    // the bare-state driver of --odds plays the very same battle
    const AutoResult rc = resolveTvbd(e, start, 5, pol);
    QCOMPARE(rc.winner, ra.winner);
    QCOMPARE(rc.actions, ra.actions);
    // mid-battle, two different policy random streams give the same choice
    TacticalGame g(e, start, 3);
    wp::rules::Rng rng(3);
    for (int k = 0; k < 200 && !g.state().over(); ++k) {
        wp::rules::Rng r1(11), r2(12345);
        const TAction x = choosePolicyAction(e, g.state(), Policy::Tactical, r1);
        QCOMPARE(actionText(g.state(), choosePolicyAction(e, g.state(), Policy::Tactical, r2)),
                 actionText(g.state(), x));
        QVERIFY(g.apply(choosePolicyAction(e, g.state(), Policy::Simple, rng), &error));
    }
}

// 5.1, 14.4-14.6: the AI declares a charge when its odds (chargeOdds) favour it and not when they do not.
void TestTvbd::aiChargesWhenTheOddsFavourIt() {
    TvbdEngine e(*rules);
    auto position = [&](int myResolve, UnitType enemy, int enemyResolve, bool large) {
        Pos p(*rules);
        p.add(0, UnitType::Horse, 10, 10, 90, myResolve);                       // A0, front edge y 10.5
        p.add(1, enemy, 10, 12.5, 270, enemyResolve, Quality::Ordinary, large); // B1, 1.5 TUM ahead
        p.add(0, UnitType::Horse, 30, 5, 90);                                   // far away: the
        p.add(1, UnitType::Horse, 30, 27, 270);                                 // armies' morale
        p.s.originalUnits[0] = p.s.originalUnits[1] = 12;
        p.s.step = Step::Declare;
        p.s.stepSide = 0;
        p.s.turn = 1;
        p.s.active = 1; // the reactive side declares last: no enemy charge to weigh against
        return p.s;
    };
    // a weakened Shot in front of fresh Horse: a charge
    const BattleState weak = position(-1, UnitType::Shot, 1, false);
    const TvbdMeleeOdds good = chargeOdds(e, weak, 0, 1);
    QVERIFY(good.valid);
    QVERIFY(good.targetRouts > 0.5);
    QVERIFY(meleeValue(weak, good, 0) > 0);
    const TAction a = aiChoice(e, weak);
    QCOMPARE(a.kind, TAction::Charge);
    QCOMPARE(a.unit, 0);
    QCOMPARE(a.target, 1);
    // a worn-out Horse (resolve 1) in front of a fresh large Pike and Shot: no charge (the step ends)
    const BattleState strong = position(1, UnitType::PikeShot, -1, true);
    QVERIFY(offered(e, strong, TAction::Charge, 0)); // the charge is legal ...
    const TvbdMeleeOdds bad = chargeOdds(e, strong, 0, 1);
    QVERIFY(bad.valid);
    QVERIFY(bad.unitRouts > bad.targetRouts);
    QVERIFY(meleeValue(strong, bad, 0) < 0);
    QCOMPARE(aiChoice(e, strong).kind, TAction::End); // ... and declined
}

// 14.4-14.6: chargeOdds is remembered per thread under a key of what it reads (TvbdEngine::chargeKey): an
// equal table gets the same answer, and the answer follows the target's resolve, a friend moved up behind it
// (14.5.6 support: its dice) and the charger's place.
void TestTvbd::chargeOddsFollowTheTable() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    p.add(0, UnitType::Horse, 10, 10, 90);      // A0, front edge y 10.5
    p.add(1, UnitType::Shot, 10, 12.5, 270, 2); // B1, 1.5 TUM ahead, unsupported
    p.add(1, UnitType::Shot, 30, 27, 270);      // B2, far away
    p.add(0, UnitType::Horse, 30, 5, 90);       // A3, far away
    p.s.originalUnits[0] = p.s.originalUnits[1] = 12;
    p.s.step = Step::Declare;
    p.s.stepSide = 0;
    p.s.turn = 1;
    p.s.active = 0;
    const TvbdMeleeOdds before = chargeOdds(e, p.s, 0, 1);
    QVERIFY(before.valid);
    QCOMPARE(before.members, (QList<int>{0, 1}));
    const BattleState same = p.s; // an equal table (another object): the same answer
    QCOMPARE(chargeOdds(e, same, 0, 1).pRout, before.pRout);
    BattleState marked = p.s; // a marker it does not read: the same answer
    marked.units[3].shotMarker = true;
    QCOMPARE(chargeOdds(e, marked, 0, 1).pRout, before.pRout);
    BattleState weaker = p.s; // the target at resolve 1: more likely to rout
    weaker.units[1].resolve = 1;
    QVERIFY(chargeOdds(e, weaker, 0, 1).targetRouts > before.targetRouts);
    BattleState supported = p.s; // a friend right behind the target: it fights with 2 dice, not 1
    supported.units[2].pose.c = {10, 12.5 + rules->type(UnitType::Shot).d + 0.5};
    QVERIFY(e.supported(supported, 1));
    QVERIFY(!e.supported(p.s, 1));
    QVERIFY(chargeOdds(e, supported, 0, 1).lossUnit > before.lossUnit);
    BattleState moved = p.s; // the charger moved back out of reach: no contact, no melee
    moved.units[0].pose.c = {10, 2};
    QVERIFY(!chargeOdds(e, moved, 0, 1).valid);
}

// 12.1: checkMove is remembered per thread under the table's fingerprint, the unit and the move: the answer
// follows a friend moved onto the move's end and away again (the same table object, changed in place), and a
// refusal remembered still gives its reason when one is asked for.
void TestTvbd::checkMoveFollowsTheTable() {
    Pos p(*rules);
    const int h = p.add(0, UnitType::Horse, 10, 5, 90);
    const int f = p.add(0, UnitType::PikeShot, 30, 5, 90);
    TvbdEngine e(*rules);
    const MoveSpec m = mv(MoveKind::Straight, 0, 6);
    QVERIFY(e.checkMove(p.s, h, m).has_value());
    p.s.units[f].pose.c = {10, 11}; // where the move ends
    QVERIFY(!e.checkMove(p.s, h, m).has_value());
    QString why;
    QVERIFY(!e.checkMove(p.s, h, m, &why).has_value());
    QVERIFY(!why.isEmpty());
    p.s.units[f].pose.c = {30, 5};
    const auto end = e.checkMove(p.s, h, m);
    QVERIFY(end.has_value());
    QCOMPARE(end->c.y, 11.0);
}

// 12.1.7, 12.2: a limbered Cannon unlimbers; an unlimbered Cannon with a target shoots (bombardment and
// shooting steps).
void TestTvbd::aiCannonShoots() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    const int gun = p.add(0, UnitType::Cannon, 10, 5, 90);
    const int target = p.add(1, UnitType::PikeShot, 10, 16, 270);
    p.add(1, UnitType::Horse, 35, 27, 270);
    p.s.turn = 1;
    p.s.stepSide = 0;
    for (Step step : {Step::Bombard, Step::Shoot}) {
        p.s.step = step;
        const TAction a = aiChoice(e, p.s);
        QCOMPARE(a.kind, TAction::Shoot);
        QCOMPARE(a.unit, gun);
        QCOMPARE(a.target, target);
    }
    p.s.units[gun].limbered = true;
    p.s.step = Step::Move;
    const TAction m = aiChoice(e, p.s);
    QCOMPARE(m.kind, TAction::Move);
    QCOMPARE(m.unit, gun);
    QCOMPARE(m.move.kind, MoveKind::Unlimber);
    // nothing in range and in its front: no shot is offered, so none is chosen
    p.s.units[gun].limbered = false;
    p.s.units[gun].pose.facing = 270;
    p.s.step = Step::Shoot;
    QCOMPARE(aiChoice(e, p.s).kind, TAction::End);
}

// 15.5: the Commander attaches to the unit of its command with combat losses (which it rallies), wherever
// that unit stands.
void TestTvbd::aiRalliesAShakenUnit() {
    TvbdEngine e(*rules);
    for (const bool hurtLeft : {true, false}) {
        Pos p(*rules);
        const int c = p.add(0, UnitType::Commander, 10, 5, 90);
        const int left = p.add(0, UnitType::Horse, 6, 5, 90, hurtLeft ? 1 : -1);
        const int right = p.add(0, UnitType::Horse, 14, 5, 90, hurtLeft ? -1 : 1);
        p.add(1, UnitType::PikeShot, 40, 28, 270);
        p.s.turn = 1;
        p.s.step = Step::Move;
        p.s.stepSide = 0;
        p.s.units[left].actedThisStep = p.s.units[right].actedThisStep = true; // the Commander moves now
        const TAction a = aiChoice(e, p.s);
        QCOMPARE(a.unit, c);
        QCOMPARE(a.move.kind, MoveKind::Attach);
        QCOMPARE(a.move.target, hurtLeft ? left : right);
        // attached, it stays with the unit
        QVERIFY(e.apply(p.s, a));
        QCOMPARE(p.s.units[c].attachedTo, hurtLeft ? left : right);
        e.morale(p.s);
        QCOMPARE(p.s.units[hurtLeft ? left : right].resolve, 2); // 15.5: rallied
    }
}

// 12.1: a command's foot keeps its line: a unit ahead of a laggard that has moved waits for it; with no foot
// behind it, it advances.
void TestTvbd::aiKeepsItsLine() {
    TvbdEngine e(*rules);
    for (const bool laggard : {true, false}) {
        Pos p(*rules);
        // the laggard: Pike and Shot of the same command; else Horse (not in the line)
        const int rear = p.add(0, laggard ? UnitType::PikeShot : UnitType::Horse, 10, 5, 90);
        const int front = p.add(0, UnitType::PikeShot, 20, 12, 90);
        p.add(1, UnitType::PikeShot, 15, 27, 270);
        p.s.attacker = 0;
        p.s.turn = 1;
        p.s.step = Step::Move;
        p.s.stepSide = 0;
        p.s.units[rear].actedThisStep = true;
        const TAction a = aiChoice(e, p.s);
        QCOMPARE(a.unit, front);
        double endY = p.s.units[front].pose.c.y;
        if (a.kind == TAction::Move) {
            const auto pose = e.checkMove(p.s, front, a.move);
            QVERIFY(pose);
            endY = pose->c.y;
        }
        if (laggard)
            QVERIFY2(endY <= 12 + 1.5 + 1e-6, // within the attacker's slack (kAttackerLineSlack, 1.5 TUM)
                     qPrintable(QString::number(endY)));
        else
            QVERIFY2(endY > 13, qPrintable(QString::number(endY)));
    }
}

// The AI's Horse makes for the enemy's flank (or rear) rather than its front.
void TestTvbd::aiHorseMakesForTheFlank() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    const int horse = p.add(0, UnitType::Horse, 10, 8, 90);
    const int foot = p.add(1, UnitType::PikeShot, 12, 18, 270);
    p.s.attacker = 0;
    p.s.turn = 1;
    p.s.step = Step::Move;
    p.s.phaseIndex = 1;
    p.s.stepSide = p.s.active = 0;
    const Pose& y = p.s.units[foot].pose;
    auto flankGap = [&](Vec2 c) { // distance to the nearer point beside the enemy's flanks
        const Vec2 side = y.right() * (y.w / 2 + 2.5);
        return std::min((c - (y.c + side)).length(), (c - (y.c - side)).length());
    };
    const Vec2 before = p.s.units[horse].pose.c;
    // three moves (the enemy standing): each one ends nearer its flank, never in front of it in reach of a
    // charge on the Horse's front
    for (int turn = 0; turn < 3; ++turn) {
        p.s.units[horse].actedThisStep = false;
        p.s.units[horse].movedMarker = false;
        const TAction a = aiChoice(e, p.s);
        QCOMPARE(a.kind, TAction::Move);
        p.s.scripted = {6}; // out of command (no Commander): the 12.1.2 check passes
        QVERIFY(e.apply(p.s, a));
        QVERIFY((p.s.units[horse].pose.c - before).length() > 0.5);
        p.s.step = Step::Move;
        p.s.stepSide = 0;
    }
    const Vec2 after = p.s.units[horse].pose.c;
    QVERIFY2(flankGap(after) < flankGap(before) - 3,
             qPrintable(QStringLiteral("%1,%2").arg(after.x).arg(after.y)));
    QVERIFY(classify(y, p.s.units[horse].pose) != Zone::Front);
}

// The attacker scores only its two best-bounded move options in full (kAttackerScoreBudget); each one the
// engine refuses lets two more be scored. Its straight advances (the best bounds) all end in a friend that
// has moved (12.1.12: a move ends clear; not passed through across its facing, Table 5): it still advances by
// another move, never holds.
void TestTvbd::aiAttackerGoesRoundABlock() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    const int unit = p.add(0, UnitType::PikeShot, 20, 8, 90);
    const int block = p.add(0, UnitType::PikeShot, 20, 10.6, 0);
    p.add(1, UnitType::PikeShot, 20, 27, 270);
    p.s.attacker = 0;
    p.s.turn = 1;
    p.s.step = Step::Move;
    p.s.stepSide = p.s.active = 0;
    p.s.units[block].actedThisStep = true;
    int refused = 0;
    for (const MoveOption& o : e.moveOptions(p.s, unit))
        if (o.move.kind == MoveKind::Straight && !e.checkMove(p.s, unit, o.move))
            ++refused;
    QVERIFY(refused >= 2); // the position blocks the two best-bounded options
    const TAction a = aiChoice(e, p.s);
    QCOMPARE(a.unit, unit);
    QCOMPARE(a.kind, TAction::Move);
    const auto pose = e.checkMove(p.s, unit, a.move);
    QVERIFY(pose);
    QVERIFY2(pose->c.y > 8.5, qPrintable(QString::number(pose->c.y)));
}

// tvbd_odds: the exact melee odds agree with the engine's own melee (resolveMelee) rolled many times.
void TestTvbd::aiOddsMatchTheDice() {
    TvbdEngine e(*rules);
    Pos p(*rules);
    const int bern = p.add(1, UnitType::Horse, 20, 15, 90); // T12's position: 14.5.6 support on both sides
    p.add(1, UnitType::Horse, 20, 13, 90);
    const int imp = p.add(0, UnitType::Horse, 21.5, 16.3, 180, 2);
    p.add(0, UnitType::Horse, 23.5, 16.3, 180);
    p.s.units[imp].charged = true;
    p.s.originalUnits[0] = p.s.originalUnits[1] = 12;
    const TvbdMeleeOdds o = meleeOdds(e, p.s, imp);
    QVERIFY(o.valid && o.exact);
    QCOMPARE(o.target, bern);
    for (qsizetype k = 0; k < o.members.size(); ++k)
        QVERIFY(qAbs(o.pWin[k] + o.pDraw[k] + o.pLose[k] - 1) < 1e-9);
    const int n = 3000;
    double lossImp = 0, lossBern = 0;
    for (int seed = 1; seed <= n; ++seed) {
        BattleState t = p.s;
        t.rng.reseed(quint64(seed));
        e.resolveMelee(t);
        lossImp += p.s.units[imp].resolve - std::max(0, t.units[imp].resolve);
        lossBern += p.s.units[bern].resolve - std::max(0, t.units[bern].resolve);
    }
    // fixed seeds: the sample means lie well within 4 standard errors (< 0.06 here) of the exact values
    QVERIFY2(qAbs(lossImp / n - o.lossUnit) < 0.06,
             qPrintable(QStringLiteral("%1 vs %2").arg(lossImp / n).arg(o.lossUnit)));
    QVERIFY2(qAbs(lossBern / n - o.lossTarget) < 0.06,
             qPrintable(QStringLiteral("%1 vs %2").arg(lossBern / n).arg(o.lossTarget)));
}

QTEST_GUILESS_MAIN(TestTvbd)
#include "test_tvbd.moc"
