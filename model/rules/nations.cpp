// National effects (17.x): where each nationality may go and with whom it may stack. The recruiting
// restrictions and supply bases of 17.x live with recruitment and pay (economy.cpp).
#include "rules/internal.h"

namespace wp::rules {

namespace {

QString nat(const GameData& d, int nationality) {
    return d.nationalities[nationality].id;
}

} // namespace

// Nationality movement limits whose checks live here (the full set of 17.x is issue 4).
bool pieceMayEnter(const Ctx& c, int nationality, int city) {
    const City& ct = c.d.cities[city];
    const QString n = nat(c.d, nationality);
    if (ct.france) {
        // 11.31-11.32: nobody enters France before it is in the war; only Protestants enter the off-map
        // spaces.
        if (!c.s.franceInWar)
            return false;
        if (ct.offmap && c.s.nationSide[nationality] != kProtestant)
            return false;
    }
    if (n == QLatin1String("spanish") && !ct.spanishZone)
        return false; // 17.Sp.2 (the Cardinal Infante's army exception comes with C23)
    if (n == QLatin1String("hungarian")) {
        // 17.H.4: Hungary and the Areas adjacent to Austria only.
        static const QStringList allowed{"hungary", "austria", "moravia", "bohemia", "bavaria", "tyrol"};
        const int area = ct.area >= 0 ? ct.area : ct.within;
        if (area < 0 || !allowed.contains(c.d.areas[area].id))
            return false;
    }
    return true;
}

// 17.A.2 Imperial/Bavarian, 7.24 Wallenstein/Tilly: may these pieces stand together?
bool mixAllowed(const Ctx& c, const std::vector<int>& units, const std::vector<int>& leaders) {
    bool imp = false, bav = false, wallenstein = false, tilly = false;
    for (int u : units) {
        const QString n = unitNationality(c.d, c.s, u).id;
        imp |= n == QLatin1String("imperial");
        bav |= n == QLatin1String("bavarian");
    }
    for (int l : leaders) {
        const QString n = nat(c.d, c.d.leaders[l].nationality);
        imp |= n == QLatin1String("imperial");
        bav |= n == QLatin1String("bavarian");
        wallenstein |= c.d.leaders[l].id == QLatin1String("wallenstein");
        tilly |= c.d.leaders[l].id == QLatin1String("tilly");
    }
    if (wallenstein && tilly)
        return false;
    return !(c.s.imperialBavarianBan && imp && bav);
}

} // namespace wp::rules
