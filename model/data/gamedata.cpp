#include "gamedata.h"

namespace wp {

QString sideId(Side s) {
    return s == Side::Catholic ? QStringLiteral("catholic") : QStringLiteral("protestant");
}

std::optional<Side> sideFromId(const QString& id) {
    if (id == QLatin1String("catholic"))
        return Side::Catholic;
    if (id == QLatin1String("protestant"))
        return Side::Protestant;
    return std::nullopt;
}

QString unitKindId(UnitKind k) {
    switch (k) {
    case UnitKind::Veteran:
        return QStringLiteral("veteran");
    case UnitKind::Mercenary:
        return QStringLiteral("mercenary");
    case UnitKind::Militia:
        return QStringLiteral("militia");
    }
    return {};
}

std::optional<UnitKind> unitKindFromId(const QString& id) {
    for (UnitKind k : {UnitKind::Veteran, UnitKind::Mercenary, UnitKind::Militia})
        if (unitKindId(k) == id)
            return k;
    return std::nullopt;
}

QString deckId(Deck d) {
    switch (d) {
    case Deck::Early:
        return QStringLiteral("early");
    case Deck::Intervention:
        return QStringLiteral("intervention");
    case Deck::Apocalypse:
        return QStringLiteral("apocalypse");
    }
    return {};
}

std::optional<Deck> deckFromId(const QString& id) {
    for (Deck d : {Deck::Early, Deck::Intervention, Deck::Apocalypse})
        if (deckId(d) == id)
            return d;
    return std::nullopt;
}

QString cardMarkId(CardMark m) {
    switch (m) {
    case CardMark::Asterisk:
        return QStringLiteral("asterisk");
    case CardMark::Dagger:
        return QStringLiteral("dagger");
    case CardMark::None:
        break;
    }
    return QStringLiteral("none");
}

const RollBand* RollTable::lookup(int modifiedRoll) const {
    for (const RollBand& b : bands)
        if (modifiedRoll >= b.min && modifiedRoll <= b.max)
            return &b;
    return nullptr;
}

int Tables::crtColumnFor(int strength) const {
    for (qsizetype i = 0; i < crtColumns.size(); ++i) {
        const CrtColumn& c = crtColumns[i];
        if (strength >= c.min && (c.max < 0 || strength <= c.max))
            return static_cast<int>(i);
    }
    return -1;
}

int Tables::crtLoss(int column, int modifiedRoll) const {
    if (column < 0 || column >= crtLosses.size())
        return 0;
    const auto& row = crtLosses[column];
    int r = qBound(0, modifiedRoll, static_cast<int>(row.size()) - 1); // 12.26: clamp to 0..11
    return row.value(r);
}

const Scenario* GameData::scenario(const QString& id) const {
    int i = scenarioIndex.value(id, -1);
    return i < 0 ? nullptr : &scenarios[i];
}

const UnitType* GameData::unitType(int nat, UnitKind kind) const {
    for (const UnitType& u : unitTypes)
        if (u.nationality == nat && u.kind == kind)
            return &u;
    return nullptr;
}

bool GameData::areasAdjacent(int a, int b) const {
    if (a < 0 || b < 0 || a >= areas.size() || b >= areas.size())
        return false;
    for (int c : areas[a].cities)
        for (int n : cities[c].neighbours)
            if (cities[n].area == b)
                return true;
    return false;
}

} // namespace wp
