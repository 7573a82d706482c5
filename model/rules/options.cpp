// Optional rules (7.25, 19.x): chosen at game creation as key=value pairs. Each rule has its number as a
// key and a name; docs/rules-part2.md says where each one is enforced.
#include "rules/engine.h"

namespace wp::rules {

namespace {

struct OptionDef {
    const char* rule;
    const char* name;
    bool GameOptions::*field;
};

const OptionDef kOptions[] = {
    {"7.25", "wallenstein-two-star", &GameOptions::wallenstein_two_star},
    {"19.1", "victory-19.1", &GameOptions::victory_19_1},
    {"19.2a", "stronger-imperial", &GameOptions::stronger_imperial},
    {"19.2b", "guebriant", &GameOptions::guebriant},
    {"19.3", "loc-action-phase", &GameOptions::loc_action_phase},
    {"19.4a", "aid-no-limit", &GameOptions::aid_no_limit},
    {"19.4b", "aid-recruit", &GameOptions::aid_recruit},
    {"19.4c", "aid-free-action", &GameOptions::aid_free_action},
    {"19.5", "up-intervention", &GameOptions::up_intervention},
    {"19.6", "wallenstein-ambition", &GameOptions::wallenstein_ambition},
    {"19.7", "tilly-dynamic", &GameOptions::tilly_dynamic},
    {"19.8", "campaign-move", &GameOptions::campaign_move},
    {"19.9", "old-corps", &GameOptions::old_corps},
    {"19.10", "richelieu-aid", &GameOptions::richelieu_aid},
    {"19.11", "wallenstein-enemies", &GameOptions::wallenstein_enemies},
};

// Issue 12: where regular battles are resolved (docs/linked-battles.md). Not an on/off rule.
const char* const kBattleValues[] = {"crt", "tvbd", "tercios", "ask"};

// Issue 8: a difficulty handicap (docs/rules-part2.md "Handicaps"), indexed by side.
const char* const kHandicapValues[] = {"catholic:half-aid", "protestant:half-aid"};

} // namespace

bool setOption(GameOptions& o, const QString& keyValue, QString* error) {
    const QString key = keyValue.section(QLatin1Char('='), 0, 0).trimmed();
    const QString value = keyValue.contains(QLatin1Char('='))
                              ? keyValue.section(QLatin1Char('='), 1).trimmed()
                              : QStringLiteral("on");
    if (key == QLatin1String("battles")) {
        for (int i = 0; i < 4; ++i)
            if (value == QLatin1String(kBattleValues[i])) {
                o.battles = static_cast<int8_t>(i);
                return true;
            }
        if (error)
            *error = QStringLiteral("option battles: value '%1' is not crt, tvbd, tercios or ask").arg(value);
        return false;
    }
    // issue 8: handicap=catholic:half-aid | protestant:half-aid | none
    if (key == QLatin1String("handicap")) {
        if (value == QLatin1String("none")) {
            o.half_aid_side = -1;
            return true;
        }
        for (int side = 0; side < 2; ++side)
            if (value == QLatin1String(kHandicapValues[side])) {
                o.half_aid_side = static_cast<int8_t>(side);
                return true;
            }
        if (error)
            *error = QStringLiteral(
                         "option handicap: value '%1' is not catholic:half-aid, protestant:half-aid or none")
                         .arg(value);
        return false;
    }
    bool on;
    if (value == QLatin1String("on") || value == QLatin1String("1") || value == QLatin1String("true"))
        on = true;
    else if (value == QLatin1String("off") || value == QLatin1String("0") || value == QLatin1String("false"))
        on = false;
    else {
        if (error)
            *error = QStringLiteral("option %1: value '%2' is not on/off").arg(key, value);
        return false;
    }
    if (key == QLatin1String("all")) { // every optional rule at once (the fuzzer's --all-options)
        for (const OptionDef& d : kOptions)
            o.*(d.field) = on;
        return true;
    }
    for (const OptionDef& d : kOptions)
        if (key == QLatin1String(d.rule) || key == QLatin1String(d.name)) {
            o.*(d.field) = on;
            return true;
        }
    if (error) {
        QStringList known;
        for (const OptionDef& d : kOptions)
            known << QLatin1String(d.rule);
        *error = QStringLiteral("unknown option '%1' (known: %2, all, battles=crt|tvbd|tercios|ask, "
                                "handicap=catholic:half-aid|protestant:half-aid|none)")
                     .arg(key, known.join(QLatin1String(", ")));
    }
    return false;
}

QStringList optionList(const GameOptions& o) {
    QStringList l;
    for (const OptionDef& d : kOptions)
        if (o.*(d.field))
            l << QStringLiteral("%1=on").arg(QLatin1String(d.rule));
    if (o.battles > 0 && o.battles < 4) // the default (crt) is not listed: saves stay as they were
        l << QStringLiteral("battles=%1").arg(QLatin1String(kBattleValues[o.battles]));
    if (o.half_aid_side == 0 || o.half_aid_side == 1) // none is not listed either
        l << QStringLiteral("handicap=%1").arg(QLatin1String(kHandicapValues[o.half_aid_side]));
    return l;
}

} // namespace wp::rules
