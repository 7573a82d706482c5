#include "save/orders.h"

#include "rules/action.h"

#include <QJsonValue>
#include <algorithm>

namespace wp::save {

using namespace rules;

namespace {

enum class Decision { None, React, Cards, Losses, Retreat, Peace };

// What kind of decision the legal actions belong to. Only public information is used: a combat card
// decision is recognised by its frame and by its actions being "pass" and "card ..." (how many cards the
// side may play depends on its hidden hand).
Decision classify(const GameState& s, const std::vector<Action>& legal) {
    if (legal.empty())
        return Decision::None;
    auto all = [&](auto pred) { return std::all_of(legal.begin(), legal.end(), pred); };
    if (all([](const Action& a) { return a.kind == ActionKind::React; }))
        return Decision::React;
    if (all([](const Action& a) { return a.kind == ActionKind::Losses; }))
        return Decision::Losses;
    if (all([](const Action& a) { return a.kind == ActionKind::Retreat; }))
        return Decision::Retreat;
    if (all([](const Action& a) { return a.kind == ActionKind::Accept || a.kind == ActionKind::Decline; }))
        return Decision::Peace;
    const bool inCombat = !s.frames.empty() && std::holds_alternative<CombatFrame>(s.frames.back());
    if (inCombat && legal.front().kind == ActionKind::Pass &&
        all([](const Action& a) { return a.kind == ActionKind::Pass || a.kind == ActionKind::CombatCard; }))
        return Decision::Cards;
    return Decision::None;
}

int cf(const GameData& d, int type, int steps) {
    const UnitType& t = d.unitTypes[type];
    return steps >= 2 ? t.cfFull : steps == 1 ? t.cfReduced : 0;
}

// 12.31 "cheapest": the Combat Factors a loss allocation removes.
int cfLost(const GameData& d, const GameState& s, const Action& a) {
    int lost = 0;
    for (size_t i = 0; i < a.list.size() && i < a.counts.size(); ++i) {
        const UnitState& u = s.units[a.list[i]];
        lost += cf(d, u.type, u.steps) - cf(d, u.type, std::max(0, u.steps - a.counts[i]));
    }
    return lost;
}

} // namespace

QStringList StandingOrders::keys() {
    return {QStringLiteral("react"),   QStringLiteral("cards"), QStringLiteral("losses"),
            QStringLiteral("retreat"), QStringLiteral("peace"), QStringLiteral("forced")};
}

QStringList StandingOrders::values(const QString& key) {
    if (key == QLatin1String("react"))
        return {QStringLiteral("ask"), QStringLiteral("in"), QStringLiteral("out")};
    if (key == QLatin1String("cards"))
        return {QStringLiteral("ask"), QStringLiteral("none")};
    if (key == QLatin1String("losses"))
        return {QStringLiteral("ask"), QStringLiteral("cheapest")};
    if (key == QLatin1String("retreat"))
        return {QStringLiteral("ask"), QStringLiteral("inside"), QStringLiteral("any")};
    if (key == QLatin1String("peace"))
        return {QStringLiteral("ask"), QStringLiteral("decline")};
    if (key == QLatin1String("forced"))
        return {QStringLiteral("ask"), QStringLiteral("auto")};
    return {};
}

QString StandingOrders::help(const QString& key) {
    if (key == QLatin1String("react"))
        return QStringLiteral("11.23 fortress reaction: in (withdraw inside) | out (stay outside) | ask");
    if (key == QLatin1String("cards"))
        return QStringLiteral("12.23 combat cards: none (play no combat card) | ask");
    if (key == QLatin1String("losses"))
        return QStringLiteral(
            "12.31 loss allocation: cheapest (the allocation that removes the fewest Combat Factors) | ask");
    if (key == QLatin1String("retreat"))
        return QStringLiteral("12.5 retreat: a list in order of preference, e.g. inside,torgau,leipzig,any "
                              "(inside: into the friendly fortress; a city id; any: the first retreat "
                              "allowed) | ask");
    if (key == QLatin1String("peace"))
        return QStringLiteral("5.3 an offer of peace: decline (when the rules allow it) | ask");
    if (key == QLatin1String("forced"))
        return QStringLiteral("a reaction, loss, retreat or peace answer with one legal action only: auto "
                              "(take it) | ask");
    return {};
}

bool StandingOrders::set(const GameData& d, const QString& keyValue, QString* error) {
    const qsizetype eq = keyValue.indexOf(QLatin1Char('='));
    if (eq <= 0) {
        *error = QStringLiteral("'%1': expected key=value (keys: %2)")
                     .arg(keyValue, keys().join(QStringLiteral(", ")));
        return false;
    }
    return set(d, keyValue.left(eq).trimmed(), keyValue.mid(eq + 1).trimmed(), error);
}

bool StandingOrders::set(const GameData& d, const QString& key, const QString& value, QString* error) {
    if (!keys().contains(key)) {
        *error = QStringLiteral("unknown order '%1' (the orders are %2)")
                     .arg(key, keys().join(QStringLiteral(", ")));
        return false;
    }
    const QStringList allowed = values(key);
    if (key == QLatin1String("retreat") && value != QLatin1String("ask")) {
        const QStringList words = value.split(QLatin1Char(','), Qt::SkipEmptyParts);
        if (words.isEmpty()) {
            *error = QStringLiteral("retreat=%1: expected a list such as inside,torgau,any").arg(value);
            return false;
        }
        QStringList clean;
        for (const QString& raw : words) {
            const QString w = raw.trimmed();
            if (w != QLatin1String("inside") && w != QLatin1String("any") && d.city(w) < 0 && d.box(w) < 0) {
                *error =
                    QStringLiteral("retreat=%1: '%2' is neither inside, any nor a city id (maps/map.json)")
                        .arg(value, w);
                return false;
            }
            clean << w;
        }
        m_values.insert(key, clean.join(QLatin1Char(',')));
        return true;
    }
    if (!allowed.contains(value)) {
        *error = QStringLiteral("%1=%2: expected %3").arg(key, value, allowed.join(QLatin1Char('|')));
        return false;
    }
    if (value == QLatin1String("ask"))
        m_values.remove(key);
    else
        m_values.insert(key, value);
    return true;
}

QString StandingOrders::value(const QString& key) const {
    return m_values.value(key, QStringLiteral("ask"));
}

bool StandingOrders::isEmpty() const {
    return m_values.isEmpty();
}

QJsonObject StandingOrders::toJson() const {
    QJsonObject o;
    for (auto it = m_values.begin(); it != m_values.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

std::optional<StandingOrders> StandingOrders::fromJson(const GameData& d, const QJsonObject& o,
                                                       const QString& where, QString* error) {
    StandingOrders out;
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isString()) {
            *error = QStringLiteral("%1.%2: expected a string").arg(where, it.key());
            return std::nullopt;
        }
        QString why;
        if (!out.set(d, it.key(), it.value().toString(), &why)) {
            *error = QStringLiteral("%1.%2: %3").arg(where, it.key(), why);
            return std::nullopt;
        }
    }
    return out;
}

QString StandingOrders::text() const {
    if (m_values.isEmpty())
        return QStringLiteral("none");
    QStringList l;
    for (const QString& k : keys())
        if (m_values.contains(k))
            l << k + QLatin1Char('=') + m_values.value(k);
    return l.join(QLatin1Char(' '));
}

std::optional<Action> StandingOrders::choose(const Engine& engine, const GameState& s, int side,
                                             QString* rule) const {
    if (m_values.isEmpty() || s.gameOver || engine.actor(s) != side)
        return std::nullopt;
    const std::vector<Action> legal = engine.legalActions(s);
    const Decision kind = classify(s, legal);
    if (kind == Decision::None)
        return std::nullopt;
    const GameData& d = engine.data();
    auto used = [&](const QString& key, const Action& a) {
        if (rule)
            *rule = key + QLatin1Char('=') + value(key);
        return std::optional<Action>(a);
    };
    switch (kind) {
    case Decision::React: {
        const QString v = value(QStringLiteral("react"));
        if (v != QLatin1String("ask"))
            for (const Action& a : legal)
                if (formatAction(d, s, a) == QStringLiteral("react ") + v)
                    return used(QStringLiteral("react"), a);
        break;
    }
    case Decision::Cards:
        if (value(QStringLiteral("cards")) == QLatin1String("none"))
            return used(QStringLiteral("cards"), legal.front()); // "pass": play no (more) combat card
        return std::nullopt; // how many actions there are depends on the hidden hand: never "forced"
    case Decision::Losses:
        if (value(QStringLiteral("losses")) == QLatin1String("cheapest")) {
            size_t best = 0;
            for (size_t i = 1; i < legal.size(); ++i)
                if (cfLost(d, s, legal[i]) < cfLost(d, s, legal[best]))
                    best = i;
            return used(QStringLiteral("losses"), legal[best]);
        }
        break;
    case Decision::Retreat: {
        const QString v = value(QStringLiteral("retreat"));
        if (v == QLatin1String("ask"))
            break;
        for (const QString& w : v.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (w == QLatin1String("any"))
                return used(QStringLiteral("retreat"), legal.front());
            for (const Action& a : legal)
                if (formatAction(d, s, a) == QStringLiteral("retreat ") + w)
                    return used(QStringLiteral("retreat"), a);
        }
        break;
    }
    case Decision::Peace:
        if (value(QStringLiteral("peace")) == QLatin1String("decline"))
            for (const Action& a : legal)
                if (a.kind == ActionKind::Decline)
                    return used(QStringLiteral("peace"), a);
        break;
    case Decision::None:
        break;
    }
    if (legal.size() == 1 && value(QStringLiteral("forced")) == QLatin1String("auto"))
        return used(QStringLiteral("forced"), legal.front());
    return std::nullopt;
}

} // namespace wp::save
