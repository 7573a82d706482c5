#include "rules/events.h"

#include <mutex>

namespace wp::rules {

EventRegistry& EventRegistry::instance() {
    static EventRegistry r;
    return r;
}

void EventRegistry::add(const QString& cardId, EventDef def) {
    m_defs.insert(cardId, std::move(def));
    ++m_generation;
}

void EventRegistry::remove(const QString& cardId) {
    m_defs.remove(cardId);
    ++m_generation;
}

const EventDef* EventRegistry::findCard(const GameData& d, int cardIdx) const {
    struct Table {
        const EventRegistry* registry = nullptr;
        quint64 generation = 0;
        const GameData* data = nullptr;
        QByteArray fingerprint;
        std::vector<const EventDef*> defs;
    };
    thread_local Table t;
    if (t.registry != this || t.generation != m_generation || t.data != &d ||
        t.fingerprint != d.fingerprint || t.defs.size() != static_cast<size_t>(d.cards.size())) {
        t.registry = this;
        t.generation = m_generation;
        t.data = &d;
        t.fingerprint = d.fingerprint;
        t.defs.clear();
        for (const Card& cd : d.cards)
            t.defs.push_back(find(cd.id));
    }
    return cardIdx >= 0 && static_cast<size_t>(cardIdx) < t.defs.size() ? t.defs[size_t(cardIdx)] : nullptr;
}

const EventDef* EventRegistry::find(const QString& cardId) const {
    auto it = m_defs.constFind(cardId);
    return it == m_defs.constEnd() ? nullptr : &*it;
}

void registerBuiltinEvents() {
    static std::once_flag once;
    std::call_once(once, [] {
        auto& r = EventRegistry::instance();
        // The combat cards of the Breitenfeld example (12.x): the only combat-card numbers the rulebook
        // prints. The other events come with the card-events issue (model/events/).
        EventDef commandRivalry;
        commandRivalry.combat.enemyDrm = -1; // P13/C34: -1 DRM to the enemy
        r.add(QStringLiteral("P13"), commandRivalry);
        r.add(QStringLiteral("C34"), commandRivalry);
        EventDef swedishFirepower;
        swedishFirepower.combat.ownDrm = 1; // P34: +1 DRM
        swedishFirepower.combatAllowed = [](const Ctx& c, const CombatFrame& f, int side) {
            // an army with Swedish units
            const auto& units = side == f.attacker ? f.attackUnits : f.defendUnits;
            for (int u : units)
                if (unitNationality(c.d, c.s, u).id == QLatin1String("swedish"))
                    return true;
            return false;
        };
        r.add(QStringLiteral("P34"), swedishFirepower);
        EventDef unreliable;
        unreliable.combat.enemyDrm = -1; // C49/P48: -1 DRM to the enemy
        r.add(QStringLiteral("C49"), unreliable);
        r.add(QStringLiteral("P48"), unreliable);
        // the card events, one unit per card (they may replace the definitions above)
        registerCatholicEvents(r);
        registerProtestantEvents(r);
    });
}

EventChoiceInfo eventChoiceInfo(const GameData& d, const GameState& s, const ChoiceFrame& f) {
    if (f.purpose < kChooseEventBase || f.data < 0 || f.data >= d.cards.size())
        return {};
    const EventDef* ev = EventRegistry::instance().find(d.cards[f.data].id);
    return ev && ev->choiceInfo ? ev->choiceInfo(d, s, f) : EventChoiceInfo{};
}

CombatCardEffect combatCardEffect(const Ctx& c, const CombatFrame& f, int card, int side) {
    const EventDef* ev = EventRegistry::instance().find(c.d.cards[card].id);
    if (!ev)
        return {};
    return ev->combatEffect ? ev->combatEffect(c, f, side) : ev->combat;
}

CombatCardEffect combatCardEffect(const GameData& d, const GameState& s, const CombatFrame& f, int card,
                                  int side) {
    GameState copy = s; // the effects only read the state; Ctx wants a mutable one
    const Ctx c{d, copy, nullptr};
    return combatCardEffect(c, f, card, side);
}

} // namespace wp::rules
