#include "rules/named.h"

#include <array>

namespace wp::rules {

int named(const GameData& d, Named which) {
    struct Table {
        const GameData* data = nullptr;
        QByteArray fingerprint;
        qsizetype leaders = -1, nationalities = -1, boxes = -1;
        std::array<int, static_cast<size_t>(Named::Count)> index{};
    };
    thread_local Table t;
    // The data never changes while loaded; the fingerprint and sizes guard against another data set at the
    // same address.
    if (t.data != &d || t.leaders != d.leaders.size() || t.nationalities != d.nationalities.size() ||
        t.boxes != d.boxes.size() || t.fingerprint != d.fingerprint) {
        t.data = &d;
        t.fingerprint = d.fingerprint;
        t.leaders = d.leaders.size();
        t.nationalities = d.nationalities.size();
        t.boxes = d.boxes.size();
        t.index[size_t(Named::Wallenstein)] = d.leader(QStringLiteral("wallenstein"));
        t.index[size_t(Named::ChristianIV)] = d.leader(QStringLiteral("christian-iv"));
        t.index[size_t(Named::DanishNationality)] = d.nationality(QStringLiteral("danish"));
        t.index[size_t(Named::ProtestantNationality)] = d.nationality(QStringLiteral("protestant"));
        t.index[size_t(Named::UpBox)] = d.box(QStringLiteral("up"));
    }
    return t.index[size_t(which)];
}

} // namespace wp::rules
