// Loading the TVBD data tables and battle scenarios, and the text notation of actions.
#include "data/datadir.h"
#include "tvbd.h"
#include "tvbd_recruit.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace wp::tactical {

int TvbdRules::startResolve(UnitType t, Quality q, bool large) const {
    if (large && t == UnitType::PikeShot)
        return largeResolve.value(int(q), 8);
    if (t == UnitType::Commander)
        return 1;
    if (t == UnitType::Rabble || t == UnitType::Cannon || q == Quality::Raw)
        return 2;
    return std::max(1, type(t).resolve + qualityDelta.value(int(q), 0));
}

int TvbdRules::coins(UnitType t, Quality q, bool large) const {
    if (large && t == UnitType::PikeShot)
        return largeCost.value(int(q), 8);
    if (t == UnitType::Rabble || t == UnitType::Cannon)
        return qualityCost.value(int(Quality::Raw), 2);
    return qualityCost.value(int(q), 4);
}

namespace {

TerrainClass classFrom(const QString& s) {
    if (s == QLatin1String("difficult"))
        return TerrainClass::Difficult;
    if (s == QLatin1String("impassable"))
        return TerrainClass::Impassable;
    return TerrainClass::Open;
}

} // namespace

bool loadTvbdRules(const QString& path, TvbdRules* out, QString* error) {
    QJsonObject root;
    if (!readJsonObject(path, &root, error))
        return false;
    TvbdRules r;
    const QJsonObject types = root.value(QStringLiteral("unitTypes")).toObject();
    for (int i = 0; i < 8; ++i) {
        const QString name = typeName(UnitType(i));
        if (!types.contains(name)) {
            *error = QStringLiteral("%1: unitTypes.%2: missing").arg(path, name);
            return false;
        }
        const QJsonObject o = types.value(name).toObject();
        for (const char* k : {"resolve", "move", "charge", "moveDifficult", "backward", "range"})
            if (!o.value(QLatin1String(k)).isDouble()) {
                *error = QStringLiteral("%1: unitTypes.%2.%3: a number is needed")
                             .arg(path, name, QLatin1String(k));
                return false;
            }
        TypeInfo t;
        t.resolve = o.value(QStringLiteral("resolve")).toInt();
        t.move = o.value(QStringLiteral("move")).toDouble();
        t.charge = o.value(QStringLiteral("charge")).toDouble();
        t.moveDifficult = o.value(QStringLiteral("moveDifficult")).toDouble();
        t.backward = o.value(QStringLiteral("backward")).toDouble();
        t.range = o.value(QStringLiteral("range")).toDouble();
        t.shootHit = o.value(QStringLiteral("shootHit")).toInt(6);
        t.meleeHit = o.value(QStringLiteral("meleeHit")).toInt(6);
        t.meleeHitDifficult = o.value(QStringLiteral("meleeHitDifficult")).toInt(0);
        t.cmdCheckHit = o.value(QStringLiteral("cmdCheckHit")).toInt(6);
        t.cover = o.value(QStringLiteral("cover")).toBool();
        t.canEvade = o.value(QStringLiteral("canEvade")).toBool();
        t.wheelOnly = o.value(QStringLiteral("wheelOnly")).toBool();
        t.mustDeployCentre = o.value(QStringLiteral("mustDeployCentre")).toBool();
        t.w = o.value(QStringLiteral("w")).toDouble(2);
        t.d = o.value(QStringLiteral("d")).toDouble(1);
        t.source = o.value(QStringLiteral("source")).toString();
        r.types.insert(i, t);
    }
    const QJsonObject q = root.value(QStringLiteral("quality")).toObject();
    for (int i = 0; i < 4; ++i) {
        const QString name = qualityName(Quality(i));
        if (!q.contains(name)) {
            *error = QStringLiteral("%1: quality.%2: missing").arg(path, name);
            return false;
        }
        const QJsonObject o = q.value(name).toObject();
        r.qualityDelta.insert(i, o.value(QStringLiteral("dResolve")).toInt(0));
        r.qualityCost.insert(i, o.value(QStringLiteral("cost")).toInt(4));
    }
    const QJsonObject lp = root.value(QStringLiteral("largePikeShot")).toObject();
    for (int i = 0; i < 3; ++i) {
        const QJsonObject o = lp.value(qualityName(Quality(i))).toObject();
        r.largeResolve.insert(i, o.value(QStringLiteral("resolve")).toInt(8));
        r.largeCap.insert(i, o.value(QStringLiteral("cap")).toInt(4));
        r.largeCost.insert(i, o.value(QStringLiteral("cost")).toInt(8));
    }
    r.largeFlankDice = lp.value(QStringLiteral("flankDice")).toInt(2);
    r.largeFlankMinResolve = lp.value(QStringLiteral("flankDiceMinResolve")).toInt(2);
    const QJsonObject tables = root.value(QStringLiteral("tables")).toObject();
    for (auto it = tables.begin(); it != tables.end(); ++it) {
        if (!it.value().isObject())
            continue;
        const QJsonObject o = it.value().toObject();
        r.tables.insert(it.key(),
                        {o.value(QStringLiteral("w")).toDouble(), o.value(QStringLiteral("d")).toDouble(),
                         o.value(QStringLiteral("centre")).toDouble()});
    }
    r.deployShort = tables.value(QStringLiteral("deployShort")).toDouble(4);
    for (auto it = tables.begin(); it != tables.end(); ++it) {
        if (!it.value().isObject())
            continue;
        const QJsonObject o = it.value().toObject();
        const QJsonArray units = o.value(QStringLiteral("units")).toArray(),
                         coins = o.value(QStringLiteral("coins")).toArray();
        if (units.size() != 2 || coins.size() != 2 || !o.value(QStringLiteral("suggested")).isDouble() ||
            !o.value(QStringLiteral("aggressiveBonus")).isDouble()) {
            *error = QStringLiteral("%1: tables.%2: units [min, max], coins [min, max], suggested and "
                                    "aggressiveBonus are needed (10.1, 16.3.2, 16.4)")
                         .arg(path, it.key());
            return false;
        }
        r.gameSizes.insert(it.key(),
                           GameSizeInfo{units[0].toInt(), units[1].toInt(), coins[0].toInt(),
                                        coins[1].toInt(), o.value(QStringLiteral("suggested")).toInt(),
                                        o.value(QStringLiteral("aggressiveBonus")).toInt()});
    }
    const QJsonObject d = root.value(QStringLiteral("distances")).toObject();
    r.commandRadius = d.value(QStringLiteral("commandRadius")).toDouble(8);
    r.narrowGap = d.value(QStringLiteral("narrowGap")).toDouble(2);
    r.zocDepth = d.value(QStringLiteral("zocDepth")).toDouble(3);
    r.buffer = d.value(QStringLiteral("buffer")).toDouble(1);
    r.supportRange = d.value(QStringLiteral("supportRange")).toDouble(4);
    r.evadeClear = d.value(QStringLiteral("evadeClear")).toDouble(3);
    r.wheelMax = d.value(QStringLiteral("wheelMaxDeg")).toDouble(45);
    r.obliqueMax = d.value(QStringLiteral("obliqueMaxDeg")).toDouble(45);
    r.sideStep = d.value(QStringLiteral("sideStep")).toDouble(1);
    const QJsonObject tl = root.value(QStringLiteral("turnLimit")).toObject();
    r.turnLimit = tl.value(QStringLiteral("normal")).toInt(10);
    r.turnLimitAggressive = tl.value(QStringLiteral("aggressiveAttacker")).toInt(8);
    const QJsonObject lh =
        root.value(QStringLiteral("nationalities")).toObject().value(QStringLiteral("lightHorse")).toObject();
    for (auto it = lh.begin(); it != lh.end(); ++it)
        r.lightHorseNations.insert(it.key(), it.value().toBool());
    const QJsonObject tt = root.value(QStringLiteral("terrainTypes")).toObject();
    for (auto it = tt.begin(); it != tt.end(); ++it) {
        const QJsonObject o = it.value().toObject();
        TerrainTypeInfo t;
        t.cls = classFrom(o.value(QStringLiteral("class")).toString());
        t.blocksLOS = o.value(QStringLiteral("blocksLOS")).toBool();
        t.elevated = o.value(QStringLiteral("elevated")).toBool();
        t.cannonMayCross = o.value(QStringLiteral("cannonMayCross")).toBool();
        t.width = o.value(QStringLiteral("width")).toDouble(0);
        r.terrain.insert(it.key(), t);
    }
    *out = r;
    return true;
}

const TvbdRules* defaultTvbdRules(QString* error) {
    static TvbdRules rules;
    static QString loadError;
    static bool tried = false, ok = false;
    if (!tried) {
        tried = true;
        ok = loadTvbdRules(wp::findDataDir() + QStringLiteral("/resources/tactical/tvbd.json"), &rules,
                           &loadError);
    }
    if (!ok && error)
        *error = loadError;
    return ok ? &rules : nullptr;
}

// ---- terrain features ------------------------------------------------------------------------------------

TerrainFeature terrainFeature(const TvbdRules& rules, const TerrainSpec& spec) {
    TerrainFeature f;
    f.id = spec.id;
    f.type = spec.type;
    const TerrainTypeInfo ti = rules.terrain.value(spec.type);
    f.cls = ti.cls;
    f.blocksLOS = spec.blocksLOSSet ? spec.blocksLOS : ti.blocksLOS;
    f.elevated = ti.elevated;
    if (spec.shape == QLatin1String("ellipse") || spec.shape == QLatin1String("rect")) {
        const bool ell = spec.shape == QLatin1String("ellipse");
        f.pieces << (ell ? ellipse(spec.centre, spec.a, spec.b, spec.rotation)
                         : rectangle(spec.centre, spec.a, spec.b, spec.rotation + 90));
        f.peak = spec.centre;
        f.radius = ell ? std::min(spec.a, spec.b) : std::min(spec.a, spec.b) / 2;
    } else if (spec.shape == QLatin1String("line")) {
        for (qsizetype k = 1; k < spec.points.size(); ++k)
            f.pieces << thickSegment(spec.points[k - 1], spec.points[k], spec.width);
    } else if (!spec.points.isEmpty()) {
        f.pieces << spec.points;
        Vec2 c;
        for (const Vec2& p : spec.points)
            c = c + p * (1.0 / double(spec.points.size()));
        f.peak = c;
        f.radius = 1e9;
        for (const Vec2& p : spec.points)
            f.radius = std::min(f.radius, (p - c).length());
    }
    if (spec.peakSet)
        f.peak = spec.peak;
    return f;
}

QJsonObject terrainSpecJson(const TerrainSpec& f) {
    auto pt = [](Vec2 p) { return QJsonArray{p.x, p.y}; };
    QJsonObject o{
        {QStringLiteral("id"), f.id}, {QStringLiteral("type"), f.type}, {QStringLiteral("shape"), f.shape}};
    if (!f.size.isEmpty())
        o.insert(QStringLiteral("size"), f.size);
    if (f.shape == QLatin1String("ellipse") || f.shape == QLatin1String("rect")) {
        const bool ell = f.shape == QLatin1String("ellipse");
        o.insert(QStringLiteral("centre"), pt(f.centre));
        o.insert(ell ? QStringLiteral("rx") : QStringLiteral("w"), f.a);
        o.insert(ell ? QStringLiteral("ry") : QStringLiteral("d"), f.b);
        o.insert(QStringLiteral("rotation"), f.rotation);
    } else {
        QJsonArray pts;
        for (const Vec2& p : f.points)
            pts << pt(p);
        o.insert(QStringLiteral("points"), pts);
        if (f.shape == QLatin1String("line"))
            o.insert(QStringLiteral("width"), f.width);
    }
    if (f.blocksLOSSet)
        o.insert(QStringLiteral("blocksLOS"), f.blocksLOS);
    if (f.peakSet)
        o.insert(QStringLiteral("peak"), pt(f.peak));
    return o;
}

// ---- scenarios ------------------------------------------------------------------------------------------

namespace {

struct Reader {
    QString file;
    QString* error;
    bool fail(const QString& path, const QString& what) {
        *error = QStringLiteral("%1: %2: %3").arg(file, path, what);
        return false;
    }
    bool point(const QJsonValue& v, const QString& path, Vec2* p) {
        const QJsonArray a = v.toArray();
        if (!v.isArray() || a.size() != 2 || !a[0].isDouble() || !a[1].isDouble())
            return fail(path, QStringLiteral("a point [x, y] is needed"));
        *p = {a[0].toDouble(), a[1].toDouble()};
        return true;
    }
    bool number(const QJsonObject& o, const QString& key, const QString& path, double* v,
                bool required = true, double def = 0) {
        if (!o.contains(key)) {
            if (required)
                return fail(path + QLatin1Char('.') + key, QStringLiteral("missing"));
            *v = def;
            return true;
        }
        if (!o.value(key).isDouble())
            return fail(path + QLatin1Char('.') + key, QStringLiteral("a number is needed"));
        *v = o.value(key).toDouble();
        return true;
    }
};

} // namespace

bool scenarioFromJson(const QJsonObject& root, const QString& fileName, const TvbdRules& rules,
                      BattleState* out, QString* error) {
    Reader rd{fileName, error};
    BattleState s;
    const QString rulesName = root.value(QStringLiteral("rules")).toString(QStringLiteral("tvbd"));
    if (rulesName != QLatin1String("tvbd"))
        return rd.fail(QStringLiteral("rules"), QStringLiteral("'%1' is not 'tvbd'").arg(rulesName));
    s.title = root.value(QStringLiteral("title")).toString();
    s.sizeName = root.value(QStringLiteral("size")).toString(QStringLiteral("small"));
    if (!rules.tables.contains(s.sizeName))
        return rd.fail(
            QStringLiteral("size"),
            QStringLiteral("unknown table size '%1' (small, big, shallowSmall, giant)").arg(s.sizeName));
    s.tableW = rules.tables[s.sizeName][0];
    s.tableD = rules.tables[s.sizeName][1];
    s.centreW = rules.tables[s.sizeName][2];
    const QJsonArray sides = root.value(QStringLiteral("sides")).toArray();
    if (sides.size() != 2)
        return rd.fail(QStringLiteral("sides"), QStringLiteral("exactly two sides are needed"));
    for (int i = 0; i < 2; ++i) {
        s.sideName[i] = sides[i].toObject().value(QStringLiteral("name")).toString();
        if (s.sideName[i].isEmpty())
            return rd.fail(QStringLiteral("sides[%1].name").arg(i), QStringLiteral("missing"));
        s.impetuous[i] = sides[i].toObject().value(QStringLiteral("impetuous")).toBool(); // 16.10.3
        // 7.3.2: the nationality decides whether the army may have Light Horse; without one it is not checked
        const QJsonValue nat = sides[i].toObject().value(QStringLiteral("nationality"));
        if (!nat.isUndefined()) {
            s.nationality[i] = nat.toString();
            if (!rules.lightHorseNations.contains(s.nationality[i]))
                return rd.fail(
                    QStringLiteral("sides[%1].nationality").arg(i),
                    QStringLiteral("unknown nationality '%1' (one of %2)")
                        .arg(s.nationality[i], rules.lightHorseNations.keys().join(QStringLiteral(", "))));
            s.noLightHorse[i] = !rules.lightHorseNations.value(s.nationality[i]);
        }
    }
    const QJsonValue att = root.value(QStringLiteral("attacker"));
    if (att.isUndefined() || att.isNull())
        s.attacker = -1; // 10.3: rolled for when the battle starts
    else if (!att.isDouble() || (att.toInt() != 0 && att.toInt() != 1))
        return rd.fail(QStringLiteral("attacker"), QStringLiteral("0 or 1 is needed (the index in sides)"));
    else
        s.attacker = att.toInt();
    const QJsonObject opts = root.value(QStringLiteral("options")).toObject();
    for (auto it = opts.begin(); it != opts.end(); ++it) {
        if (it.key() == QLatin1String("variableArmyMorale"))
            s.variableArmyMorale = it.value().toBool();
        else if (it.key() == QLatin1String("commandMorale"))
            s.commandMorale = it.value().toBool();
        else if (it.key() == QLatin1String("cavalryPursuit"))
            s.cavalryPursuit = it.value().toBool();
        else if (it.key() == QLatin1String("attackerAlwaysInitiative"))
            s.attackerAlwaysInitiative = it.value().toBool();
        else if (it.key() == QLatin1String("aggressiveAttacker"))
            s.turnLimit = it.value().toBool() ? rules.turnLimitAggressive : rules.turnLimit;
        else if (it.key() == QLatin1String("twoStreams"))
            s.setup.twoStreams = it.value().toBool(); // 16.7 (with terrain cards)
        else
            return rd.fail(QStringLiteral("options.") + it.key(), QStringLiteral("unknown option"));
    }
    if (s.cavalryPursuit && !s.commandMorale)
        return rd.fail(
            QStringLiteral("options.cavalryPursuit"),
            QStringLiteral("16.10.3 cavalry pursuit is part of command morale: set commandMorale too"));
    if (!opts.contains(QStringLiteral("aggressiveAttacker")))
        s.turnLimit = rules.turnLimit;
    if (root.contains(QStringLiteral("turnLimit"))) {
        const int tl = root.value(QStringLiteral("turnLimit")).toInt(-1);
        if (tl < 1 || tl > 50)
            return rd.fail(QStringLiteral("turnLimit"),
                           QStringLiteral("a whole number from 1 to 50 is needed"));
        s.turnLimit = tl;
    }

    // set-up left to the players (10.1, 10.2, 10.4, 10.6)
    const QJsonObject setup = root.value(QStringLiteral("setup")).toObject();
    for (auto it = setup.begin(); it != setup.end(); ++it) {
        const QString v = it.value().toString();
        if ((it.key() == QLatin1String("gameSize") || it.key() == QLatin1String("armies")) &&
            v != QLatin1String("players") && v != QLatin1String("scenario"))
            return rd.fail(QStringLiteral("setup.") + it.key(),
                           QStringLiteral("'%1' is not 'players' (%2) or 'scenario'")
                               .arg(v, it.key() == QLatin1String("gameSize") ? QStringLiteral("10.1")
                                                                             : QStringLiteral("10.2")));
        if (it.key() == QLatin1String("cardLayout")) { // 16.8 (shallow small tables)
            if (v != QLatin1String("2x1") && v != QLatin1String("2x2"))
                return rd.fail(QStringLiteral("setup.cardLayout"),
                               QStringLiteral("'%1' is not '2x1' or '2x2' (16.8)").arg(v));
            s.setup.cardOverhang = v == QLatin1String("2x2");
            continue;
        }
        if (it.key() == QLatin1String("gameSize"))
            s.setup.gameSizeByPlayers = v == QLatin1String("players");
        else if (it.key() == QLatin1String("armies"))
            s.setup.recruit = v == QLatin1String("players");
        else if (it.key() == QLatin1String("terrain") &&
                 (v == QLatin1String("defender") || v == QLatin1String("scenario") ||
                  v == QLatin1String("cards"))) {
            s.setup.terrainProcedure = v == QLatin1String("defender");
            s.setup.terrainCards = v == QLatin1String("cards"); // 16.6 (advanced)
        } else if (it.key() == QLatin1String("deployment") &&
                   (v == QLatin1String("players") || v == QLatin1String("scenario")))
            s.setup.deployment = v == QLatin1String("players");
        else if (it.key() == QLatin1String("terrain") || it.key() == QLatin1String("deployment"))
            return rd.fail(
                QStringLiteral("setup.") + it.key(),
                it.key() == QLatin1String("terrain")
                    ? QStringLiteral("'%1' is not 'defender' (10.4), 'cards' (16.6) or 'scenario'").arg(v)
                    : QStringLiteral("'%1' is not 'players' (10.6) or 'scenario'").arg(v));
        else
            return rd.fail(QStringLiteral("setup.") + it.key(), QStringLiteral("unknown set-up step"));
    }
    if (s.setup.cardOverhang && (!s.setup.terrainCards || s.sizeName != QLatin1String("shallowSmall")))
        return rd.fail(
            QStringLiteral("setup.cardLayout"),
            QStringLiteral("16.8 the 2 x 2 layout is an option of terrain cards on a shallow small table"));
    if (s.setup.twoStreams && !s.setup.terrainCards)
        return rd.fail(
            QStringLiteral("options.twoStreams"),
            QStringLiteral("16.7 two streams is a terrain-card rule: set setup.terrain to 'cards'"));
    // 10.1 / 16.3.2: the army size per side, in units or coins
    if (root.contains(QStringLiteral("armySize"))) {
        const QJsonObject as = root.value(QStringLiteral("armySize")).toObject();
        const bool units = as.contains(QStringLiteral("units")), coins = as.contains(QStringLiteral("coins"));
        const int n = as.value(units ? QStringLiteral("units") : QStringLiteral("coins")).toInt(-1);
        if (units == coins || n < 1)
            return rd.fail(
                QStringLiteral("armySize"),
                QStringLiteral("{\"units\": N} (10.1) or {\"coins\": N} (16.3.2) is needed, N >= 1"));
        (units ? s.setup.armyUnits : s.setup.armyCoins) = n;
        if (s.setup.gameSizeByPlayers)
            return rd.fail(
                QStringLiteral("armySize"),
                QStringLiteral("10.1 the players agree the army size (setup.gameSize is 'players')"));
    }
    if (s.setup.gameSizeByPlayers && !s.setup.recruit)
        return rd.fail(
            QStringLiteral("setup.gameSize"),
            QStringLiteral("10.1 the players agree the game size only when they recruit the armies "
                           "(setup.armies 'players')"));
    if (s.setup.gameSizeByPlayers && !root.value(QStringLiteral("terrain")).toArray().isEmpty())
        return rd.fail(
            QStringLiteral("terrain"),
            QStringLiteral("10.1 the table is agreed by the players: a scenario's terrain needs its "
                           "table (setup.gameSize 'scenario')"));
    if (s.setup.recruit) {
        if (!s.setup.deployment)
            return rd.fail(
                QStringLiteral("setup.armies"),
                QStringLiteral("10.2 recruited armies are deployed by the players (setup.deployment "
                               "'players')"));
        if (!root.value(QStringLiteral("commands")).toArray().isEmpty())
            return rd.fail(QStringLiteral("commands"),
                           QStringLiteral("10.2 the players recruit the armies (setup.armies 'players'): no "
                                          "commands in the file"));
        if (!s.setup.gameSizeByPlayers && !s.setup.armyUnits && !s.setup.armyCoins)
            s.setup.armyUnits = rules.gameSizes.value(s.sizeName).suggested; // the designer's suggestion
        if (opts.value(QStringLiteral("aggressiveAttacker")).toBool()) {
            s.setup.aggressiveOffered = true; // 16.4: the attacker chooses in the set-up
            if (!root.contains(QStringLiteral("turnLimit")))
                s.turnLimit = rules.turnLimit;
        }
    }

    // terrain
    const QJsonArray terrain = root.value(QStringLiteral("terrain")).toArray();
    for (qsizetype i = 0; i < terrain.size(); ++i) {
        const QString path = QStringLiteral("terrain[%1]").arg(i);
        const QJsonObject o = terrain[i].toObject();
        TerrainSpec f;
        f.id = o.value(QStringLiteral("id")).toString(QStringLiteral("t%1").arg(i + 1));
        f.type = o.value(QStringLiteral("type")).toString();
        if (!rules.terrain.contains(f.type))
            return rd.fail(path + QStringLiteral(".type"),
                           QStringLiteral("unknown terrain type '%1'").arg(f.type));
        const TerrainTypeInfo& ti = rules.terrain[f.type];
        f.blocksLOSSet = o.contains(QStringLiteral("blocksLOS"));
        f.blocksLOS = o.value(QStringLiteral("blocksLOS")).toBool();
        f.shape = o.value(QStringLiteral("shape")).toString();
        f.size = o.value(QStringLiteral("size")).toString();
        if (!rd.number(o, QStringLiteral("rotation"), path, &f.rotation, false))
            return false;
        if (f.shape == QLatin1String("ellipse") || f.shape == QLatin1String("rect")) {
            if (!rd.point(o.value(QStringLiteral("centre")), path + QStringLiteral(".centre"), &f.centre))
                return false;
            const bool ell = f.shape == QLatin1String("ellipse");
            if (!rd.number(o, ell ? QStringLiteral("rx") : QStringLiteral("w"), path, &f.a) ||
                !rd.number(o, ell ? QStringLiteral("ry") : QStringLiteral("d"), path, &f.b))
                return false;
            if (f.a <= 0 || f.b <= 0)
                return rd.fail(path, QStringLiteral("sizes must be positive"));
        } else if (f.shape == QLatin1String("line") || f.shape == QLatin1String("polygon")) {
            const bool line = f.shape == QLatin1String("line");
            const QJsonArray pts = o.value(QStringLiteral("points")).toArray();
            if (pts.size() < (line ? 2 : 3))
                return rd.fail(path + QStringLiteral(".points"),
                               line ? QStringLiteral("at least two points are needed")
                                    : QStringLiteral("at least three points are needed"));
            f.width = ti.width > 0 ? ti.width : 1;
            if (line && !rd.number(o, QStringLiteral("width"), path, &f.width, false, f.width))
                return false;
            for (qsizetype k = 0; k < pts.size(); ++k) {
                Vec2 p;
                if (!rd.point(pts[k], path + QStringLiteral(".points[%1]").arg(k), &p))
                    return false;
                f.points << p;
            }
        } else {
            return rd.fail(path + QStringLiteral(".shape"),
                           QStringLiteral("'%1' is not one of ellipse, rect, line, polygon").arg(f.shape));
        }
        f.peakSet = o.contains(QStringLiteral("peak"));
        if (f.peakSet && !rd.point(o.value(QStringLiteral("peak")), path + QStringLiteral(".peak"), &f.peak))
            return false;
        s.terrain << terrainFeature(rules, f);
    }

    // commands and units
    const QJsonArray commands = root.value(QStringLiteral("commands")).toArray();
    if (commands.isEmpty() && !s.setup.recruit)
        return rd.fail(QStringLiteral("commands"), QStringLiteral("at least one command per side is needed"));
    QSet<QString> ids;
    for (qsizetype ci = 0; ci < commands.size(); ++ci) {
        const QString cpath = QStringLiteral("commands[%1]").arg(ci);
        const QJsonObject co = commands[ci].toObject();
        Command c;
        c.id = co.value(QStringLiteral("id")).toString(QStringLiteral("cmd%1").arg(ci + 1));
        c.name = co.value(QStringLiteral("name")).toString(c.id);
        const QJsonValue sv = co.value(QStringLiteral("side"));
        if (!sv.isDouble() || (sv.toInt() != 0 && sv.toInt() != 1))
            return rd.fail(cpath + QStringLiteral(".side"), QStringLiteral("0 or 1 is needed"));
        c.side = sv.toInt();
        const int cidx = int(s.commands.size());
        const QJsonArray units = co.value(QStringLiteral("units")).toArray();
        if (units.isEmpty())
            return rd.fail(cpath + QStringLiteral(".units"), QStringLiteral("no units"));
        for (qsizetype ui = 0; ui < units.size(); ++ui) {
            const QString upath = cpath + QStringLiteral(".units[%1]").arg(ui);
            const QJsonObject uo = units[ui].toObject();
            Unit u;
            u.id = uo.value(QStringLiteral("id")).toString();
            if (u.id.isEmpty() || u.id.contains(QLatin1Char(' ')))
                return rd.fail(upath + QStringLiteral(".id"),
                               QStringLiteral("an id without spaces is needed"));
            if (ids.contains(u.id.toLower()))
                return rd.fail(upath + QStringLiteral(".id"), QStringLiteral("duplicate id '%1'").arg(u.id));
            ids.insert(u.id.toLower());
            u.name = uo.value(QStringLiteral("name")).toString(u.id);
            const auto t = typeFromName(uo.value(QStringLiteral("type")).toString());
            if (!t)
                return rd.fail(upath + QStringLiteral(".type"),
                               QStringLiteral("unknown unit type '%1'")
                                   .arg(uo.value(QStringLiteral("type")).toString()));
            u.type = *t;
            const QString qn = uo.value(QStringLiteral("quality")).toString(QStringLiteral("ordinary"));
            const auto q = qualityFromName(qn);
            if (!q)
                return rd.fail(upath + QStringLiteral(".quality"),
                               QStringLiteral("unknown quality '%1'").arg(qn));
            u.quality = (u.type == UnitType::Rabble || u.type == UnitType::Cannon) ? Quality::Raw
                        : u.type == UnitType::Commander                            ? Quality::Ordinary
                                                                                   : *q;
            u.large = uo.value(QStringLiteral("large")).toBool();
            if (u.large && u.type != UnitType::PikeShot)
                return rd.fail(upath + QStringLiteral(".large"),
                               QStringLiteral("only Pike+Shot can be large (16.2)"));
            if (u.large && u.quality == Quality::Raw)
                return rd.fail(upath + QStringLiteral(".quality"),
                               QStringLiteral("a large Pike+Shot cannot be raw"));
            u.side = c.side;
            u.command = cidx;
            if (u.type == UnitType::LightHorse && s.noLightHorse[u.side])
                return rd.fail(upath + QStringLiteral(".type"),
                               QStringLiteral("'%1' is Light Horse, but side %2 is %3")
                                   .arg(u.id)
                                   .arg(u.side)
                                   .arg(lightHorseBarred(s, u.side)));
            double x = 0, y = 0, facing = c.side == 0 ? 90 : 270;
            const bool place = !s.setup.deployment;
            if (!rd.number(uo, QStringLiteral("x"), upath, &x, place) ||
                !rd.number(uo, QStringLiteral("y"), upath, &y, place) ||
                !rd.number(uo, QStringLiteral("facing"), upath, &facing, false, facing))
                return false;
            const TypeInfo& ti = rules.type(u.type);
            u.pose = Pose{{x, y}, normDeg(facing), ti.w, u.large ? 2 * ti.d : ti.d};
            if (!place)
                u.status = UnitStatus::Undeployed; // 10.6: placed in the set-up
            const Polygon poly = place ? u.pose.polygon() : Polygon();
            for (const Vec2& p : poly)
                if (p.x < -1e-6 || p.y < -1e-6 || p.x > s.tableW + 1e-6 || p.y > s.tableD + 1e-6)
                    return rd.fail(upath, QStringLiteral("the stand at (%1, %2) is off the %3 x %4 table")
                                              .arg(x)
                                              .arg(y)
                                              .arg(s.tableW)
                                              .arg(s.tableD));
            u.startResolve = rules.startResolve(u.type, u.quality, u.large);
            if (uo.contains(QStringLiteral("resolve"))) {
                const int rv = uo.value(QStringLiteral("resolve")).toInt(-1);
                if (rv < 1 || rv > u.startResolve)
                    return rd.fail(
                        upath + QStringLiteral(".resolve"),
                        QStringLiteral("must be 1..%1 (the starting resolve)").arg(u.startResolve));
                u.resolve = rv;
            } else {
                u.resolve = u.startResolve;
            }
            u.limbered = u.type == UnitType::Cannon && uo.value(QStringLiteral("limbered")).toBool();
            if (u.type == UnitType::Commander) {
                if (c.commander >= 0)
                    return rd.fail(
                        upath + QStringLiteral(".type"),
                        QStringLiteral("a second Commander in command '%1' (7.3.2: exactly one)").arg(c.id));
                c.commander = int(s.units.size());
            }
            c.initialUnits += u.large ? 2 : 1;
            s.originalUnits[c.side] += u.large ? 2 : 1;
            s.units << u;
        }
        if (c.commander < 0)
            return rd.fail(cpath, QStringLiteral("command '%1' has no Commander (7.3.2)").arg(c.id));
        s.commands << c;
    }
    for (int side = 0; side < 2 && !s.setup.recruit; ++side)
        if (s.originalUnits[side] == 0)
            return rd.fail(QStringLiteral("commands"),
                           QStringLiteral("side %1 (%2) has no units").arg(side).arg(s.sideName[side]));
    // Overlapping stands.
    for (qsizetype i = 0; i < s.units.size(); ++i)
        for (qsizetype j = i + 1; j < s.units.size(); ++j)
            if (s.units[i].type != UnitType::Commander && s.units[j].type != UnitType::Commander &&
                s.units[i].onTable() && s.units[j].onTable() &&
                overlaps(s.units[i].pose.polygon(), s.units[j].pose.polygon(), 0.01))
                return rd.fail(
                    QStringLiteral("commands"),
                    QStringLiteral("units '%1' and '%2' overlap").arg(s.units[i].id, s.units[j].id));
    // Commanders placed in contact with a friendly unit of their command start attached (digest 5.7
    // decision).
    for (Command& c : s.commands) {
        Unit& cu = s.units[c.commander];
        for (qsizetype j = 0; j < s.units.size() && cu.onTable(); ++j)
            if (s.units[j].command == cu.command && int(j) != c.commander &&
                distance(cu.pose.polygon(), s.units[j].pose.polygon()) <= kContactEps) {
                cu.attachedTo = int(j);
                break;
            }
    }
    const qint64 seed = root.value(QStringLiteral("seed")).toInteger(1);
    s.rng.reseed(quint64(seed));
    *out = s;
    return true;
}

bool loadScenario(const QString& path, const TvbdRules& rules, BattleState* out, QString* error) {
    QJsonObject root;
    if (!readJsonObject(path, &root, error))
        return false;
    return scenarioFromJson(root, path, rules, out, error);
}

bool orderOfBattleSecret(const BattleState& s) {
    return s.setup.recruit && !(s.setup.recruited[0] && s.setup.recruited[1]);
}

QString lightHorseBarred(const BattleState& s, int side) {
    if (!s.noLightHorse[side])
        return {};
    return QStringLiteral("%1 (%2): 7.3.2 only Spanish armies outside Iberia and German Catholic (Imperial, "
                          "League) armies may have Light Horse")
        .arg(s.sideName[side], s.nationality[side]);
}

QStringList armyListProblems(const BattleState& s, int side) {
    QStringList out;
    int count[8] = {};
    for (const Unit& u : s.units)
        if (u.side == side)
            ++count[int(u.type)];
    for (const Command& c : s.commands) {
        if (c.side != side)
            continue;
        if (c.initialUnits < 3 || c.initialUnits > 8)
            out << QStringLiteral("7.3.3 command '%1' has %2 units (3 to 8 with its Commander)")
                       .arg(c.id)
                       .arg(c.initialUnits);
    }
    const int cannon = count[int(UnitType::Cannon)];
    if (cannon < 1 || cannon > 4)
        out << QStringLiteral("7.3.2 %1 Cannon (1 to 4)").arg(cannon);
    for (UnitType t : {UnitType::Dragoons, UnitType::Shot, UnitType::Rabble, UnitType::LightHorse})
        if (count[int(t)] > 2)
            out << QStringLiteral("7.3.2 %1 %2 (at most 2)").arg(count[int(t)]).arg(typeLabel(t));
    if (count[int(UnitType::LightHorse)] > 0 && s.noLightHorse[side])
        out << QStringLiteral("%1 Light Horse in %2")
                   .arg(count[int(UnitType::LightHorse)])
                   .arg(lightHorseBarred(s, side));
    return out;
}

int armyCoins(const TvbdRules& rules, const BattleState& s, int side, int* sections) {
    int coins = 0, n = 0;
    for (const Unit& u : s.units) // Commanders too: always ordinary (16.3.1), 4 coins (docs/tvbd.md)
        if (u.side == side)
            coins += rules.coins(u.type, u.quality, u.large);
    for (const TerrainFeature& f : s.terrain) {
        if (f.type != QLatin1String("fortification"))
            continue;
        for (const Polygon& piece : f.pieces) {
            bool garrisoned = false;
            for (const Unit& u : s.units)
                garrisoned = garrisoned || (u.side == side && u.onTable() &&
                                            (isInfantry(u.type) || u.type == UnitType::Cannon) &&
                                            overlaps(u.pose, piece, 1e-3));
            n += garrisoned;
        }
    }
    if (sections)
        *sections = n;
    return coins + 2 * n;
}

QStringList armyListProblems(const TvbdRules& rules, const BattleState& s, int side, int coinBudget) {
    QStringList out = armyListProblems(s, side);
    int sections = 0;
    const int coins = armyCoins(rules, s, side, &sections);
    if (coins > coinBudget)
        out << QStringLiteral(
                   "16.3.2 the army costs %1 coins (%2 for %3 field-fortification section(s), 16.5.6), "
                   "over the budget of %4")
                   .arg(coins)
                   .arg(2 * sections)
                   .arg(sections)
                   .arg(coinBudget);
    return out;
}

QStringList armyListProblemsWithBudget(const TvbdRules& rules, const BattleState& s, int side) {
    const SetupState& b = s.setup;
    QStringList out = b.armyCoins > 0 ? armyListProblems(rules, s, side, b.armyCoins + b.bonusCoins[side])
                                      : armyListProblems(s, side);
    if (b.armyUnits > 0 && s.originalUnits[side] > b.armyUnits + b.bonusUnits[side])
        out << QStringLiteral("10.1 the army has %1 units, over the %2 agreed%3")
                   .arg(s.originalUnits[side])
                   .arg(b.armyUnits + b.bonusUnits[side])
                   .arg(b.bonusUnits[side]
                            ? QStringLiteral(" (with %1 bonus units, 16.4)").arg(b.bonusUnits[side])
                            : QString());
    return out;
}

// ---- action text ----------------------------------------------------------------------------------------

namespace {
QString num(double v) {
    return QString::number(v, 'g', 6);
}
} // namespace

QString actionText(const BattleState& s, const TAction& a) {
    auto id = [&](int i) { return i >= 0 && i < s.units.size() ? s.units[i].id : QStringLiteral("?"); };
    switch (a.kind) {
    case TAction::End:
        return QStringLiteral("end");
    case TAction::Stand:
        return QStringLiteral("stand %1").arg(id(a.unit));
    case TAction::Hold:
        return QStringLiteral("hold %1").arg(id(a.unit));
    case TAction::Charge:
        return QStringLiteral("charge %1 %2").arg(id(a.unit), id(a.target));
    case TAction::Shoot: {
        QString t = QStringLiteral("shoot %1 %2").arg(id(a.target), id(a.unit));
        for (int x : a.secondary)
            t += QLatin1Char('+') + id(x);
        return t;
    }
    case TAction::Place:
        return QStringLiteral("place ") + terrainSpecText(a.terrain);
    case TAction::Pass:
        return QStringLiteral("pass");
    case TAction::Size:
    case TAction::Agree:
    case TAction::Recruit:
    case TAction::Assign:
    case TAction::Aggressive:
        return recruit::actionText(s, a);
    case TAction::Deploy:
        return QStringLiteral("deploy %1 %2,%3 %4%5")
            .arg(id(a.unit), num(a.move.to.x), num(a.move.to.y), num(a.move.angle),
                 a.limbered ? QStringLiteral(" limbered") : QString());
    case TAction::Change: {
        auto fid = [&](int i) {
            return i >= 0 && i < s.setup.specs.size() ? s.setup.specs[i].id : QStringLiteral("?");
        };
        switch (a.change) {
        case TerrainChange::Remove:
            return QStringLiteral("change remove %1").arg(fid(a.target));
        case TerrainChange::Move:
            return QStringLiteral("change move %1 %2,%3").arg(fid(a.target), num(a.shift.x), num(a.shift.y));
        case TerrainChange::Swap:
            return QStringLiteral("change swap %1 %2")
                .arg(fid(a.target), fid(a.secondary.isEmpty() ? -1 : a.secondary[0]));
        case TerrainChange::Road:
            return QStringLiteral("change road %1 %2").arg(fid(a.target), terrainSpecText(a.terrain));
        case TerrainChange::ToGentle:
            return QStringLiteral("change gentle %1").arg(fid(a.target));
        case TerrainChange::ToDifficult:
            return QStringLiteral("change difficult %1").arg(fid(a.target));
        case TerrainChange::CardSwap:
            return QStringLiteral("card swap %1 %2").arg(a.target + 1).arg(a.secondary.value(0, -1) + 1);
        case TerrainChange::CardRotate:
            return QStringLiteral("card rotate %1 %2").arg(a.target + 1).arg(a.secondary.value(0, -1));
        case TerrainChange::CardOpen:
            return QStringLiteral("card open %1").arg(a.target + 1);
        case TerrainChange::CardBend:
            return QStringLiteral("card bend %1 %2").arg(a.target + 1).arg(a.secondary.value(0, -1));
        case TerrainChange::None:
            break;
        }
        return QStringLiteral("change ?");
    }
    case TAction::Move:
    case TAction::Evade: {
        const QString head =
            QLatin1String(a.kind == TAction::Move ? "move " : "evade ") + id(a.unit) + QLatin1Char(' ');
        const MoveSpec& m = a.move;
        switch (m.kind) {
        case MoveKind::Straight:
            return head + QStringLiteral("fwd ") + num(m.dist);
        case MoveKind::Wheel:
            return head + QStringLiteral("wheel %1 %2").arg(num(m.angle), num(m.dist));
        case MoveKind::Oblique:
            return head + QStringLiteral("oblique %1 %2").arg(num(m.angle), num(m.dist));
        case MoveKind::AboutFace:
            return head + QStringLiteral("aboutface %1").arg(num(m.dist));
        case MoveKind::Turn:
            return head +
                   QStringLiteral("turn %1 %2")
                       .arg(m.angle > 0 ? QStringLiteral("left") : QStringLiteral("right"), num(m.dist));
        case MoveKind::Sideways:
            return head + QStringLiteral("side %1").arg(m.angle > 0 ? QStringLiteral("left")
                                                                    : QStringLiteral("right"));
        case MoveKind::Backward:
            return head + QStringLiteral("back ") + num(m.dist);
        case MoveKind::Unlimber:
            return head + QStringLiteral("unlimber");
        case MoveKind::Pivot:
            return head + QStringLiteral("pivot ") + num(m.angle);
        case MoveKind::To:
            return head + QStringLiteral("to %1,%2").arg(num(m.to.x), num(m.to.y));
        case MoveKind::Attach:
            return head + QStringLiteral("attach ") + id(m.target);
        case MoveKind::Face:
            return head + QStringLiteral("face ") + id(m.target);
        }
    }
    }
    return {};
}

bool parseAction(const BattleState& s, const QString& text, TAction* out, QString* error) {
    const QStringList w = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    auto bad = [&](const QString& why) {
        *error = QStringLiteral("'%1': %2").arg(text, why);
        return false;
    };
    if (w.isEmpty())
        return bad(QStringLiteral("empty action"));
    auto unit = [&](const QString& id, int* idx) {
        *idx = s.indexOf(id);
        return *idx >= 0;
    };
    auto number = [&](int i, double* v) {
        if (i >= w.size())
            return false;
        bool ok = false;
        *v = w[i].toDouble(&ok);
        return ok;
    };
    TAction a;
    const QString verb = w[0].toLower();
    auto point = [&](const QString& t, Vec2* p) {
        const QStringList xy = t.split(QLatin1Char(','));
        bool okx = false, oky = false;
        if (xy.size() == 2)
            *p = {xy[0].toDouble(&okx), xy[1].toDouble(&oky)};
        return okx && oky;
    };
    auto feature = [&](const QString& fid, int* idx) {
        for (qsizetype i = 0; i < s.setup.specs.size(); ++i)
            if (s.setup.specs[i].id.compare(fid, Qt::CaseInsensitive) == 0) {
                *idx = int(i);
                return true;
            }
        return false;
    };
    if (verb == QLatin1String("end")) {
        a.kind = TAction::End;
    } else if (verb == QLatin1String("pass")) {
        a.kind = TAction::Pass;
    } else if (verb == QLatin1String("size") || verb == QLatin1String("agree") ||
               verb == QLatin1String("recruit") || verb == QLatin1String("assign") ||
               verb == QLatin1String("aggressive")) {
        QString why;
        if (!recruit::parseAction(s, w, &a, &why))
            return bad(why);
    } else if (verb == QLatin1String("place")) {
        a.kind = TAction::Place;
        QString why;
        if (!parseTerrainSpec(w.mid(1), &a.terrain, &why))
            return bad(why);
    } else if (verb == QLatin1String("deploy")) {
        a.kind = TAction::Deploy;
        a.move.kind = MoveKind::To;
        if (w.size() < 4 || !unit(w[1], &a.unit))
            return bad(QStringLiteral("deploy UNIT X,Y FACING [limbered]"));
        if (!point(w[2], &a.move.to) || !number(3, &a.move.angle))
            return bad(QStringLiteral("deploy UNIT X,Y FACING [limbered]"));
        a.limbered = w.size() > 4 && w[4].toLower() == QLatin1String("limbered");
    } else if (verb == QLatin1String("card")) {
        // 16.6 terrain cards: card swap S1 S2 | card rotate S O | card open S (sectors numbered from 1)
        a.kind = TAction::Change;
        const QString k = w.value(1).toLower();
        auto sector = [&](int i, int* idx) {
            bool ok = false;
            *idx = w.value(i).toInt(&ok) - 1;
            return ok && *idx >= 0 && *idx < s.setup.cards.size();
        };
        int other = -1;
        if (w.size() < 3 || !sector(2, &a.target))
            return bad(QStringLiteral(
                           "card swap S1 S2, card rotate S O, card open S or card bend S O (a sector from 1 "
                           "to %1)")
                           .arg(s.setup.cards.size()));
        if (k == QLatin1String("swap") && w.size() == 4 && sector(3, &other)) {
            a.change = TerrainChange::CardSwap;
            a.secondary = {other};
        } else if (k == QLatin1String("rotate") && w.size() == 4 && w[3].size() == 1 &&
                   w[3][0] >= QLatin1Char('0') && w[3][0] <= QLatin1Char('3')) {
            a.change = TerrainChange::CardRotate;
            a.secondary = {w[3].toInt()};
        } else if (k == QLatin1String("open") && w.size() == 3) {
            a.change = TerrainChange::CardOpen;
        } else if (k == QLatin1String("bend") && w.size() == 4 && w[3].size() == 1 &&
                   w[3][0] >= QLatin1Char('0') && w[3][0] <= QLatin1Char('3')) {
            a.change = TerrainChange::CardBend; // 16.7
            a.secondary = {w[3].toInt()};
        } else {
            return bad(
                QStringLiteral("card swap S1 S2, card rotate S O (0-3), card open S or card bend S O"));
        }
    } else if (verb == QLatin1String("change")) {
        a.kind = TAction::Change;
        const QString k = w.value(1).toLower();
        if (w.size() < 3 || !feature(w[2], &a.target))
            return bad(QStringLiteral("unknown terrain feature"));
        if (k == QLatin1String("remove")) {
            a.change = TerrainChange::Remove;
        } else if (k == QLatin1String("move")) {
            a.change = TerrainChange::Move;
            if (w.size() < 4 || !point(w[3], &a.shift))
                return bad(QStringLiteral("change move FEATURE DX,DY"));
        } else if (k == QLatin1String("swap")) {
            a.change = TerrainChange::Swap;
            int other = -1;
            if (w.size() < 4 || !feature(w[3], &other))
                return bad(QStringLiteral("unknown terrain feature"));
            a.secondary = {other};
        } else if (k == QLatin1String("road")) {
            a.change = TerrainChange::Road;
            QString why;
            if (!parseTerrainSpec(w.mid(3), &a.terrain, &why))
                return bad(why);
            a.terrain.id = s.setup.specs[a.target].id;
        } else if (k == QLatin1String("gentle") || k == QLatin1String("difficult")) {
            a.change = k == QLatin1String("gentle") ? TerrainChange::ToGentle : TerrainChange::ToDifficult;
        } else {
            return bad(QStringLiteral("remove, move, swap, road, gentle or difficult"));
        }
    } else if (verb == QLatin1String("stand") || verb == QLatin1String("charge") ||
               verb == QLatin1String("hold")) {
        a.kind = verb == QLatin1String("stand")  ? TAction::Stand
                 : verb == QLatin1String("hold") ? TAction::Hold
                                                 : TAction::Charge;
        if (w.size() < 2 || !unit(w[1], &a.unit))
            return bad(QStringLiteral("unknown unit"));
        if (a.kind == TAction::Charge && (w.size() < 3 || !unit(w[2], &a.target)))
            return bad(QStringLiteral("unknown target"));
    } else if (verb == QLatin1String("shoot")) {
        a.kind = TAction::Shoot;
        if (w.size() < 3 || !unit(w[1], &a.target))
            return bad(QStringLiteral("unknown target"));
        const QStringList sh = w[2].split(QLatin1Char('+'));
        if (!unit(sh[0], &a.unit))
            return bad(QStringLiteral("unknown shooter"));
        for (qsizetype i = 1; i < sh.size(); ++i) {
            int x;
            if (!unit(sh[i], &x))
                return bad(QStringLiteral("unknown shooter '%1'").arg(sh[i]));
            a.secondary << x;
        }
    } else if (verb == QLatin1String("move") || verb == QLatin1String("evade")) {
        a.kind = verb == QLatin1String("move") ? TAction::Move : TAction::Evade;
        if (w.size() < 3 || !unit(w[1], &a.unit))
            return bad(QStringLiteral("unknown unit"));
        const QString k = w[2].toLower();
        MoveSpec& m = a.move;
        double v = 0;
        if (k == QLatin1String("fwd")) {
            m.kind = MoveKind::Straight;
            if (!number(3, &m.dist))
                return bad(QStringLiteral("a distance is needed"));
        } else if (k == QLatin1String("wheel") || k == QLatin1String("oblique")) {
            m.kind = k == QLatin1String("wheel") ? MoveKind::Wheel : MoveKind::Oblique;
            if (!number(3, &m.angle))
                return bad(QStringLiteral("an angle is needed"));
            if (!number(4, &m.dist))
                m.dist = 0;
        } else if (k == QLatin1String("aboutface")) {
            m.kind = MoveKind::AboutFace;
            if (!number(3, &m.dist))
                m.dist = 0;
        } else if (k == QLatin1String("turn") || k == QLatin1String("side")) {
            m.kind = k == QLatin1String("turn") ? MoveKind::Turn : MoveKind::Sideways;
            if (w.size() < 4 || (w[3] != QLatin1String("left") && w[3] != QLatin1String("right")))
                return bad(QStringLiteral("left or right is needed"));
            m.angle = w[3] == QLatin1String("left") ? 1 : -1;
            if (!number(4, &m.dist))
                m.dist = 0;
        } else if (k == QLatin1String("back")) {
            m.kind = MoveKind::Backward;
            if (!number(3, &m.dist))
                return bad(QStringLiteral("a distance is needed"));
        } else if (k == QLatin1String("unlimber")) {
            m.kind = MoveKind::Unlimber;
        } else if (k == QLatin1String("pivot")) {
            m.kind = MoveKind::Pivot;
            if (!number(3, &m.angle))
                return bad(QStringLiteral("a facing is needed"));
        } else if (k == QLatin1String("to")) {
            m.kind = MoveKind::To;
            const QStringList xy = w.value(3).split(QLatin1Char(','));
            bool ok1 = false, ok2 = false;
            if (xy.size() == 2) {
                m.to = {xy[0].toDouble(&ok1), xy[1].toDouble(&ok2)};
            }
            if (!ok1 || !ok2)
                return bad(QStringLiteral("a point x,y is needed"));
        } else if (k == QLatin1String("attach")) {
            m.kind = MoveKind::Attach;
            if (w.size() < 4 || !unit(w[3], &m.target))
                return bad(QStringLiteral("unknown unit to attach to"));
        } else if (k == QLatin1String("face")) {
            m.kind = MoveKind::Face;
            if (w.size() < 4 || !unit(w[3], &m.target))
                return bad(QStringLiteral("unknown enemy to face"));
        } else {
            return bad(QStringLiteral("unknown move '%1'").arg(k));
        }
        (void)v;
    } else {
        return bad(QStringLiteral("unknown action '%1'").arg(verb));
    }
    *out = a;
    return true;
}

} // namespace wp::tactical
