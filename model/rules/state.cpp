#include "rules/economy.h"
#include "rules/internal.h"

#include <algorithm>
#include <cstring>

namespace wp::rules {

QString sideName(int side) {
    return side == kCatholic     ? QStringLiteral("Catholic")
           : side == kProtestant ? QStringLiteral("Protestant")
                                 : QStringLiteral("nobody");
}

QString cardUseName(CardUse u) {
    switch (u) {
    case CardUse::Act:
        return QStringLiteral("act");
    case CardUse::Rec:
        return QStringLiteral("rec");
    case CardUse::Aid:
        return QStringLiteral("aid");
    case CardUse::Event:
        return QStringLiteral("event");
    case CardUse::Dutch:
        return QStringLiteral("dutch");
    case CardUse::Enemies:
        return QStringLiteral("enemies");
    }
    return {};
}

int Ctx::roll(const QString& why, int side) {
    int r;
    if (!s.forcedDice.empty()) {
        r = s.forcedDice.front();
        s.forcedDice.erase(s.forcedDice.begin());
    } else {
        r = s.rng.d10();
    }
    randomness = true;
    WP_SAY(*this, QStringLiteral("%1 rolls %2 (%3)").arg(sideName(side)).arg(r).arg(why), side);
    return r;
}

int areaControl(const GameState& s, int area) {
    return s.areas[area].control;
}

bool areaNeutral(const GameState& s, int area) {
    return s.areas[area].neutral;
}

int effectiveCityControl(const GameData& d, const GameState& s, int city) {
    const CityState& cs = s.cities[city];
    if (cs.revolt) // 9.42: a city in revolt is Neutral
        return kNone;
    if (cs.marker != kNone)
        return cs.marker;
    const City& c = d.cities[city];
    if (c.france) // 2.42, 11.32: France is Protestant once it is in the war
        return s.franceInWar ? kProt : kNone;
    if (c.independent || c.area < 0)
        return kNone;
    return s.areas[c.area].control; // 3.13: the Area's controller holds unmarked cities
}

int unitSide(const GameData& d, const GameState& s, int unit) {
    return s.nationSide[d.unitTypes[s.units[unit].type].nationality];
}

int leaderSide(const GameData& d, const GameState& s, int leader) {
    return s.nationSide[d.leaders[leader].nationality];
}

const Nationality& unitNationality(const GameData& d, const GameState& s, int unit) {
    return d.nationalities[d.unitTypes[s.units[unit].type].nationality];
}

int unitCf(const GameData& d, const GameState& s, int unit) {
    const UnitType& t = d.unitTypes[s.units[unit].type];
    return s.units[unit].steps >= 2 ? t.cfFull : s.units[unit].steps == 1 ? t.cfReduced : 0;
}

int unitLf(const GameData& d, const GameState& s, int unit) {
    return d.unitTypes[s.units[unit].type].lf;
}

int unitMa(const GameData& d, const GameState& s, int unit) {
    return d.unitTypes[s.units[unit].type].ma;
}

static bool onBoard(int loc) {
    return loc >= 0;
}

namespace {
// Which pieces are where: a per-thread index of the units and leaders of one state, by location and side, in
// counter order. Inside a PieceIndexScope the state cannot change (listing the legal actions takes the state
// const); outside every scope it is brought up to date before each query. It follows the pieces that differ
// from its copy (or is rebuilt when the sides of the nations, the counters or the data differ), so the code
// that moves pieces needs no bookkeeping.
struct PieceIndex {
    const GameData* data = nullptr;
    QByteArray fingerprint;
    std::vector<UnitState> units;
    std::vector<LeaderState> leaders;
    std::vector<int8_t> nationSide;
    int cities = 0, slotCount = 0;
    // Per bucket (slot * 2 + side) the first piece, and per piece the next one in the same bucket (-1 ends),
    // in counter order: the queries meet the pieces in the order a scan would.
    std::vector<int16_t> unitHead, leaderHead, unitNext, leaderNext;

    int slotOf(int loc) const {
        if (loc < 0)
            return -1;
        if (loc < kBoxBase)
            return loc < cities ? loc : -1;
        const int b = cities + (loc - kBoxBase);
        return b < slotCount ? b : -1;
    }
    void build(const GameState& s, const GameData& d) {
        data = &d;
        fingerprint = d.fingerprint;
        units = s.units;
        leaders = s.leaders;
        nationSide = s.nationSide;
        cities = static_cast<int>(d.cities.size());
        slotCount = cities + static_cast<int>(d.boxes.size());
        const size_t buckets = static_cast<size_t>(slotCount) * 2;
        auto bucketOf = [&](int loc, int nationality) {
            const int slot = slotOf(loc);
            const int side = s.nationSide[nationality];
            if (slot < 0 || (side != kCatholic && side != kProtestant))
                return -1;
            return slot * 2 + side;
        };
        auto fill = [&](std::vector<int16_t>& head, std::vector<int16_t>& next, size_t n,
                        auto&& bucketOfPiece) {
            head.assign(buckets, -1);
            next.resize(n);
            for (size_t i = n; i-- > 0;) // backwards, so that each list is in counter order
                if (const int b = bucketOfPiece(i); b >= 0) {
                    next[i] = head[size_t(b)];
                    head[size_t(b)] = static_cast<int16_t>(i);
                }
        };
        fill(unitHead, unitNext, s.units.size(),
             [&](size_t i) { return bucketOf(s.units[i].loc, d.unitTypes[s.units[i].type].nationality); });
        fill(leaderHead, leaderNext, s.leaders.size(), [&](size_t i) {
            if (s.leaders[i].status != LeaderStatus::InPlay)
                return -1;
            return bucketOf(s.leaders[i].loc, d.leaders[qsizetype(i)].nationality);
        });
    }

    // The index's buckets, by the copy's own sides (equal to the state's when repair() relinks).
    int bucketOf(int loc, int nationality) const {
        const int slot = slotOf(loc);
        const int side = nationSide[size_t(nationality)];
        if (slot < 0 || (side != kCatholic && side != kProtestant))
            return -1;
        return slot * 2 + side;
    }
    int unitBucket(const UnitState& u) const { return bucketOf(u.loc, data->unitTypes[u.type].nationality); }
    int leaderBucket(const LeaderState& l, size_t i) const {
        return l.status == LeaderStatus::InPlay ? bucketOf(l.loc, data->leaders[qsizetype(i)].nationality)
                                                : -1;
    }
    static void unlink(std::vector<int16_t>& head, std::vector<int16_t>& next, int b, int i) {
        if (b < 0)
            return;
        int16_t* at = &head[size_t(b)];
        while (*at >= 0 && *at != i)
            at = &next[size_t(*at)];
        if (*at == i)
            *at = next[size_t(i)];
    }
    static void link(std::vector<int16_t>& head, std::vector<int16_t>& next, int b, int i) {
        if (b < 0)
            return;
        int16_t* at = &head[size_t(b)];
        while (*at >= 0 && *at < i) // counter order
            at = &next[size_t(*at)];
        next[size_t(i)] = *at;
        *at = static_cast<int16_t>(i);
    }
    // Brings the index up to `s` by moving only the pieces that changed, when `s` has the same data, counters
    // and sides as the copy; false (nothing done) otherwise. Most changes between two queries move a few
    // pieces: the copies are compared in blocks, and only a differing block piece by piece.
    bool repair(const GameState& s, const GameData& d) {
        if (data != &d || units.size() != s.units.size() || leaders.size() != s.leaders.size() ||
            nationSide != s.nationSide || d.fingerprint != fingerprint)
            return false;
        constexpr size_t kBlock = 32;
        for (size_t b0 = 0, n = units.size(); b0 < n; b0 += kBlock) {
            const size_t end = std::min(n, b0 + kBlock);
            if (std::memcmp(&units[b0], &s.units[b0], (end - b0) * sizeof(UnitState)) == 0)
                continue;
            for (size_t i = b0; i < end; ++i) {
                UnitState& mine = units[i];
                const UnitState& now = s.units[i];
                if (mine.loc != now.loc || mine.type != now.type) {
                    const int from = unitBucket(mine), to = unitBucket(now);
                    if (from != to) {
                        unlink(unitHead, unitNext, from, int(i));
                        link(unitHead, unitNext, to, int(i));
                    }
                }
                mine = now;
            }
        }
        for (size_t b0 = 0, n = leaders.size(); b0 < n; b0 += kBlock) {
            const size_t end = std::min(n, b0 + kBlock);
            if (std::memcmp(&leaders[b0], &s.leaders[b0], (end - b0) * sizeof(LeaderState)) == 0)
                continue;
            for (size_t i = b0; i < end; ++i) {
                LeaderState& mine = leaders[i];
                const LeaderState& now = s.leaders[i];
                if (mine.loc != now.loc || mine.status != now.status) {
                    const int from = leaderBucket(mine, i), to = leaderBucket(now, i);
                    if (from != to) {
                        unlink(leaderHead, leaderNext, from, int(i));
                        link(leaderHead, leaderNext, to, int(i));
                    }
                }
                mine = now;
            }
        }
        return true;
    }
    // Makes the index describe `s`.
    void sync(const GameState& s, const GameData& d) {
        if (!repair(s, d))
            build(s, d);
    }
};

thread_local PieceIndex tIndex;
thread_local const GameState* tTrusted = nullptr; // the state the index describes while it cannot change

// The slot of `loc` in the index when the index may serve `s`: inside a PieceIndexScope of `s`, or outside
// every scope when the index still describes `s` (it is rebuilt here when the pieces have changed); else -1.
int indexedSlot(const GameState& s, const GameData& d, int loc) {
    if (&s == tTrusted)
        return tIndex.slotOf(loc);
    if (tTrusted)
        return -1;
    tIndex.sync(s, d);
    return tIndex.slotOf(loc);
}

// mode: 0 all, 1 outside a fortress, 2 inside
template <class F>
void forUnitsAt(const GameState& s, int loc, int side, const GameData& d, int mode, F&& f) {
    if (!onBoard(loc))
        return;
    const PieceIndex& ix = tIndex;
    const int slot = side == kCatholic || side == kProtestant ? indexedSlot(s, d, loc) : -1;
    if (slot < 0) { // not indexed: scan
        for (size_t i = 0; i < s.units.size(); ++i) {
            const UnitState& u = s.units[i];
            if (u.loc != loc || (mode == 1 && (u.flags & kInside)) || (mode == 2 && !(u.flags & kInside)))
                continue;
            if (s.nationSide[d.unitTypes[u.type].nationality] == side && f(static_cast<int>(i)))
                return;
        }
        return;
    }
    const size_t b = size_t(slot) * 2 + size_t(side);
    for (int i = ix.unitHead[b]; i >= 0; i = ix.unitNext[size_t(i)]) {
        const UnitState& u = s.units[size_t(i)];
        if ((mode == 1 && (u.flags & kInside)) || (mode == 2 && !(u.flags & kInside)))
            continue;
        if (f(i))
            return;
    }
}

template <class F> void forLeadersAt(const GameState& s, int loc, int side, const GameData& d, F&& f) {
    const PieceIndex& ix = tIndex;
    const int slot = side == kCatholic || side == kProtestant ? indexedSlot(s, d, loc) : -1;
    if (slot < 0) { // not indexed: scan
        for (size_t i = 0; i < s.leaders.size(); ++i)
            if (s.leaders[i].loc == loc && s.leaders[i].status == LeaderStatus::InPlay &&
                s.nationSide[d.leaders[qsizetype(i)].nationality] == side && f(static_cast<int>(i)))
                return;
        return;
    }
    const size_t b = size_t(slot) * 2 + size_t(side);
    for (int l = ix.leaderHead[b]; l >= 0; l = ix.leaderNext[size_t(l)])
        if (f(l))
            return;
}

std::vector<int> unitsWhere(const GameState& s, int loc, int side, const GameData& d, int mode) {
    std::vector<int> out;
    forUnitsAt(s, loc, side, d, mode, [&](int u) {
        out.push_back(u);
        return false;
    });
    return out;
}

bool anyUnitWhere(const GameState& s, int loc, int side, const GameData& d, int mode) {
    bool any = false;
    forUnitsAt(s, loc, side, d, mode, [&](int) { return any = true; });
    return any;
}
} // namespace

PieceIndexScope::PieceIndexScope(const GameState& s, const GameData& d)
    : m_previous(tTrusted), m_previousData(tIndex.data) {
    if (tTrusted == &s && tIndex.data == &d)
        return; // nested in a scope of the same state, which cannot have changed: the index describes it
    tIndex.sync(s, d);
    tTrusted = &s;
}

PieceIndexScope::~PieceIndexScope() {
    if (m_previous == tTrusted)
        return; // nested in a scope of the same state (the constructor changed nothing)
    // An enclosing scope's state has not changed (it is const while its scope lasts); the index may describe
    // another state now.
    if (m_previous)
        tIndex.sync(*m_previous, *m_previousData);
    tTrusted = m_previous;
}

std::vector<int> unitsAt(const GameState& s, int loc, int side, const GameData& d) {
    return unitsWhere(s, loc, side, d, 0);
}

std::vector<int> leadersAt(const GameState& s, int loc, int side, const GameData& d) {
    std::vector<int> out;
    forLeadersAt(s, loc, side, d, [&](int l) {
        out.push_back(l);
        return false;
    });
    return out;
}

std::vector<int> unitsOutside(const GameState& s, int loc, int side, const GameData& d) {
    return unitsWhere(s, loc, side, d, 1);
}

std::vector<int> unitsInside(const GameState& s, int loc, int side, const GameData& d) {
    return unitsWhere(s, loc, side, d, 2);
}

bool anyUnitsAt(const GameState& s, int loc, int side, const GameData& d) {
    return anyUnitWhere(s, loc, side, d, 0);
}

bool anyUnitsOutside(const GameState& s, int loc, int side, const GameData& d) {
    return anyUnitWhere(s, loc, side, d, 1);
}

bool anyUnitsInside(const GameState& s, int loc, int side, const GameData& d) {
    return anyUnitWhere(s, loc, side, d, 2);
}

bool anyLeadersAt(const GameState& s, int loc, int side, const GameData& d) {
    bool any = false;
    forLeadersAt(s, loc, side, d, [&](int) { return any = true; });
    return any;
}

int cfSum(const GameData& d, const GameState& s, const std::vector<int>& units) {
    int sum = 0;
    for (int u : units)
        sum += unitCf(d, s, u);
    return sum;
}

bool hasEnemyUnits(const GameData& d, const GameState& s, int city, int side) {
    return anyUnitsAt(s, city, other(side), d);
}

int siegeLevel(const GameData& d, const GameState& s, int city) {
    const City& c = d.cities[city];
    if (!c.fortress)
        return 0;
    // 13.13: Fortress Strength + CF of all units inside (of the side holding the fortress).
    int inside = 0;
    for (int side : {kCatholic, kProtestant})
        inside += cfSum(d, s, unitsInside(s, city, side, d));
    return c.fortress->strength + inside;
}

bool isDynamic(const GameData& d, const GameState& s, int leader) {
    return effectiveStars(d, s, leader) > 0; // 10.14, with 7.25 and 19.7
}

QString cityName(const GameData& d, int loc) {
    if (isCity(static_cast<int16_t>(loc)) && loc < d.cities.size())
        return d.cities[loc].name;
    if (isBox(static_cast<int16_t>(loc)) && loc - kBoxBase < d.boxes.size())
        return d.boxes[loc - kBoxBase].name;
    return QStringLiteral("(nowhere)");
}

QString leaderName(const GameData& d, int leader) {
    return d.leaders[leader].counterName;
}

int locSide(const GameData& d, const GameState& s, int loc) {
    for (int side : {kCatholic, kProtestant})
        if (anyUnitsAt(s, loc, side, d) || anyLeadersAt(s, loc, side, d))
            return side;
    return kNone;
}

} // namespace wp::rules
