#include "save/savefile.h"

#include "data/datadir.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <zlib.h>

namespace wp::save {

namespace {

constexpr int kCheckpointEvery = 64;            // a chain checkpoint every this many actions
constexpr qsizetype kMaxRaw = 64 * 1024 * 1024; // refuse to inflate beyond this (a zip bomb)

QString at(const QString& name, const QString& path) {
    return name + QStringLiteral(": ") + path + QStringLiteral(": ");
}

} // namespace

QByteArray gzipCompress(const QByteArray& raw) {
    z_stream z{};
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out;
    out.resize(static_cast<qsizetype>(deflateBound(&z, static_cast<uLong>(raw.size()))) + 32);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.constData()));
    z.avail_in = static_cast<uInt>(raw.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    const qsizetype n = static_cast<qsizetype>(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END)
        return {};
    out.resize(n);
    return out;
}

bool gzipDecompress(const QByteArray& gz, QByteArray* raw, QString* error) {
    if (gz.isEmpty()) {
        *error = QStringLiteral("the file is empty");
        return false;
    }
    if (gz.size() < 2 || static_cast<uint8_t>(gz[0]) != 0x1f || static_cast<uint8_t>(gz[1]) != 0x8b) {
        *error = QStringLiteral("not a gzip file (a .tyw save is gzip-compressed JSON)");
        return false;
    }
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        *error = QStringLiteral("zlib cannot start");
        return false;
    }
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.constData()));
    z.avail_in = static_cast<uInt>(gz.size());
    QByteArray out;
    char buf[16384];
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buf, static_cast<qsizetype>(sizeof buf - z.avail_out));
        if (out.size() > kMaxRaw) {
            inflateEnd(&z);
            *error = QStringLiteral("inflates to more than %1 MiB: not a save").arg(kMaxRaw >> 20);
            return false;
        }
        if (rc == Z_BUF_ERROR && z.avail_in == 0)
            break; // input ended before the stream did
    }
    const uLong consumed = z.total_in;
    const QString zmsg = z.msg ? QString::fromLatin1(z.msg) : QString();
    inflateEnd(&z);
    if (rc == Z_STREAM_END) {
        if (static_cast<qsizetype>(consumed) != gz.size()) {
            *error = QStringLiteral("%1 bytes of garbage after the end of the gzip data (at byte %2)")
                         .arg(gz.size() - static_cast<qsizetype>(consumed))
                         .arg(consumed);
            return false;
        }
        *raw = std::move(out);
        return true;
    }
    if (rc == Z_BUF_ERROR || (rc == Z_OK && z.avail_in == 0)) {
        *error = QStringLiteral("truncated: the gzip data ends early (after %1 bytes, %2 bytes inflated)")
                     .arg(gz.size())
                     .arg(out.size());
        return false;
    }
    *error = QStringLiteral("corrupt gzip data near byte %1%2")
                 .arg(consumed)
                 .arg(zmsg.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(zmsg));
    return false;
}

QByteArray chainStart(const QByteArray& fingerprint, const QString& scenario, const QStringList& options,
                      uint64_t seed) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(QByteArrayView("westphalia-save\n"));
    h.addData(fingerprint);
    h.addData(QByteArrayView("\n"));
    h.addData(scenario.toUtf8());
    h.addData(QByteArrayView("\n"));
    h.addData(options.join(QLatin1Char(',')).toUtf8());
    h.addData(QByteArrayView("\n"));
    h.addData(QByteArray::number(static_cast<qulonglong>(seed)));
    return h.result().toHex();
}

QByteArray chainNext(const QByteArray& link, const QString& action) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(link);
    h.addData(QByteArrayView("\n"));
    h.addData(action.toUtf8());
    return h.result().toHex();
}

SaveGame fromGame(const rules::Game& game) {
    SaveGame g;
    g.appVersion = appVersion();
    g.fingerprint = game.data().fingerprint;
    g.scenario = game.scenario();
    g.options = rules::optionList(game.options());
    g.seed = game.seed();
    g.actions = game.actions();
    g.result = game.state().gameOver ? game.state().result : QString();
    return g;
}

QByteArray serialize(const SaveGame& g) {
    QJsonObject o = g.extra;
    o[QStringLiteral("format")] = QStringLiteral("westphalia-save");
    o[QStringLiteral("version")] = g.format;
    o[QStringLiteral("app")] = g.appVersion;
    o[QStringLiteral("data")] = QString::fromLatin1(g.fingerprint);
    o[QStringLiteral("scenario")] = g.scenario;
    o[QStringLiteral("options")] = QJsonArray::fromStringList(g.options);
    o[QStringLiteral("seed")] = QString::number(static_cast<qulonglong>(g.seed));
    o[QStringLiteral("actions")] = QJsonArray::fromStringList(g.actions);
    QByteArray link = chainStart(g.fingerprint, g.scenario, g.options, g.seed);
    QJsonArray checkpoints;
    for (qsizetype i = 0; i < g.actions.size(); ++i) {
        link = chainNext(link, g.actions[i]);
        if ((i + 1) % kCheckpointEvery == 0)
            checkpoints.append(QString::fromLatin1(link.left(16)));
    }
    QJsonObject chain;
    chain[QStringLiteral("every")] = kCheckpointEvery;
    chain[QStringLiteral("checkpoints")] = checkpoints;
    chain[QStringLiteral("head")] = QString::fromLatin1(link);
    o[QStringLiteral("chain")] = chain;
    if (!g.result.isEmpty())
        o[QStringLiteral("result")] = g.result;
    return gzipCompress(QJsonDocument(o).toJson(QJsonDocument::Indented));
}

std::optional<SaveGame> parse(const QByteArray& bytes, const QString& name, QString* error) {
    QByteArray raw;
    QString why;
    if (!gzipDecompress(bytes, &raw, &why)) {
        *error = name + QStringLiteral(": ") + why;
        return std::nullopt;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &pe);
    if (pe.error != QJsonParseError::NoError) {
        // the line of the offset in the inflated text
        const int line = static_cast<int>(raw.left(pe.offset).count('\n')) + 1;
        *error = QStringLiteral("%1: bad JSON at line %2 (byte %3 of the inflated text): %4")
                     .arg(name)
                     .arg(line)
                     .arg(pe.offset)
                     .arg(pe.errorString());
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = at(name, QStringLiteral("$")) + QStringLiteral("expected a JSON object");
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("westphalia-save")) {
        *error = at(name, QStringLiteral("$.format")) +
                 QStringLiteral("expected \"westphalia-save\": not a Westphalia save");
        return std::nullopt;
    }
    const QJsonValue ver = o.value(QStringLiteral("version"));
    if (!ver.isDouble() || ver.toDouble() != static_cast<double>(ver.toInt())) {
        *error = at(name, QStringLiteral("$.version")) + QStringLiteral("expected a whole number");
        return std::nullopt;
    }
    SaveGame g;
    g.format = ver.toInt();
    if (g.format > kFormatVersion) {
        *error = at(name, QStringLiteral("$.version")) +
                 QStringLiteral("format version %1 is newer than this Westphalia (%2) reads (%3); written by "
                                "Westphalia %4")
                     .arg(g.format)
                     .arg(appVersion())
                     .arg(kFormatVersion)
                     .arg(o.value(QStringLiteral("app")).toString(QStringLiteral("?")));
        return std::nullopt;
    }
    if (g.format < 1) {
        *error = at(name, QStringLiteral("$.version")) +
                 QStringLiteral("unknown format version %1 (this build reads 1 to %2)")
                     .arg(g.format)
                     .arg(kFormatVersion);
        return std::nullopt;
    }
    auto str = [&](const char* key, QString* outVal) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isString()) {
            *error = at(name, QStringLiteral("$.%1").arg(QLatin1String(key))) +
                     (v.isUndefined() ? QStringLiteral("missing") : QStringLiteral("expected a string"));
            return false;
        }
        *outVal = v.toString();
        return true;
    };
    auto strList = [&](const char* key, QStringList* outVal) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isArray()) {
            *error = at(name, QStringLiteral("$.%1").arg(QLatin1String(key))) +
                     (v.isUndefined() ? QStringLiteral("missing") : QStringLiteral("expected an array"));
            return false;
        }
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!a[i].isString()) {
                *error = at(name, QStringLiteral("$.%1[%2]").arg(QLatin1String(key)).arg(i)) +
                         QStringLiteral("expected a string");
                return false;
            }
            outVal->append(a[i].toString());
        }
        return true;
    };
    QString fp, seedText;
    if (!str("app", &g.appVersion) || !str("data", &fp) || !str("scenario", &g.scenario) ||
        !str("seed", &seedText) || !strList("options", &g.options) || !strList("actions", &g.actions))
        return std::nullopt;
    g.fingerprint = fp.toLatin1();
    bool ok = false;
    g.seed = seedText.toULongLong(&ok);
    if (!ok) {
        *error = at(name, QStringLiteral("$.seed")) +
                 QStringLiteral("'%1' is not a whole number from 0 to 2^64-1").arg(seedText);
        return std::nullopt;
    }
    g.result = o.value(QStringLiteral("result")).toString();
    // The hash chain: the first checkpoint that does not match says where the log was edited.
    const QJsonObject chain = o.value(QStringLiteral("chain")).toObject();
    const QJsonArray cps = chain.value(QStringLiteral("checkpoints")).toArray();
    const int every = chain.value(QStringLiteral("every")).toInt(-1);
    if (every != kCheckpointEvery || !chain.value(QStringLiteral("head")).isString()) {
        *error = at(name, QStringLiteral("$.chain")) +
                 QStringLiteral("missing or malformed (expected every: %1, checkpoints, head)")
                     .arg(kCheckpointEvery);
        return std::nullopt;
    }
    QByteArray link = chainStart(g.fingerprint, g.scenario, g.options, g.seed);
    for (qsizetype i = 0; i < g.actions.size(); ++i) {
        link = chainNext(link, g.actions[i]);
        if ((i + 1) % kCheckpointEvery == 0) {
            const qsizetype k = (i + 1) / kCheckpointEvery - 1;
            if (k >= cps.size() || cps[k].toString().toLatin1() != link.left(16)) {
                *error = at(name, QStringLiteral("$.chain.checkpoints[%1]").arg(k)) +
                         QStringLiteral("the hash chain does not match the actions: the log was edited at or "
                                        "before action %1 (between actions %2 and %1)")
                             .arg(i)
                             .arg(i + 1 - kCheckpointEvery);
                return std::nullopt;
            }
        }
    }
    const qsizetype expectCps = g.actions.size() / kCheckpointEvery;
    if (cps.size() != expectCps) {
        *error = at(name, QStringLiteral("$.chain.checkpoints")) +
                 QStringLiteral("%1 checkpoints for %2 actions (expected %3): actions were removed or added")
                     .arg(cps.size())
                     .arg(g.actions.size())
                     .arg(expectCps);
        return std::nullopt;
    }
    if (chain.value(QStringLiteral("head")).toString().toLatin1() != link) {
        *error =
            at(name, QStringLiteral("$.chain.head")) +
            QStringLiteral("the hash chain does not match the actions: the log was edited after action %1")
                .arg(expectCps * kCheckpointEvery);
        return std::nullopt;
    }
    // Other sections (a PBEM session) are kept for their owners.
    static const QStringList own{"format",  "version", "app",     "data",  "scenario",
                                 "options", "seed",    "actions", "chain", "result"};
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!own.contains(it.key()))
            g.extra.insert(it.key(), it.value());
    return g;
}

bool writeFile(const QString& path, const SaveGame& g, QString* error) {
    const QByteArray bytes = serialize(g);
    if (bytes.isEmpty()) {
        *error = QStringLiteral("%1: cannot compress the save").arg(path);
        return false;
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    if (f.write(bytes) != bytes.size() || !f.commit()) {
        *error = QStringLiteral("%1: cannot write: %2 (the previous file, if any, is unchanged)")
                     .arg(path, f.errorString());
        f.cancelWriting();
        return false;
    }
    return true;
}

std::optional<SaveGame> readFile(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    return parse(f.readAll(), path, error);
}

bool replay(const SaveGame& g, const QString& name, rules::Game& game, QString* error, int upto) {
    if (g.fingerprint != game.data().fingerprint) {
        *error = at(name, QStringLiteral("$.data")) +
                 QStringLiteral("the game data differ from those the game was played with (fingerprint %1, "
                                "these data %2): the maps/ or cards/ files were changed")
                     .arg(QString::fromLatin1(g.fingerprint.left(16)),
                          QString::fromLatin1(game.data().fingerprint.left(16)));
        return false;
    }
    rules::GameOptions options;
    for (qsizetype i = 0; i < g.options.size(); ++i) {
        QString why;
        if (!rules::setOption(options, g.options[i], &why)) {
            *error = at(name, QStringLiteral("$.options[%1]").arg(i)) + why;
            return false;
        }
    }
    QString why;
    if (!game.start(g.scenario, options, g.seed, &why)) {
        *error = at(name, QStringLiteral("$.scenario")) + why;
        return false;
    }
    const qsizetype n = upto < 0 ? g.actions.size() : std::min<qsizetype>(upto, g.actions.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (game.state().gameOver) {
            *error = at(name, QStringLiteral("$.actions[%1]").arg(i)) +
                     QStringLiteral("'%1' comes after the end of the game").arg(g.actions[i]);
            return false;
        }
        const rules::ApplyResult r = game.play(g.actions[i]);
        if (!r.ok) {
            *error = at(name, QStringLiteral("$.actions[%1]").arg(i)) +
                     QStringLiteral("illegal action '%1' (action %2 of %3, turn %4, %5 to act): %6")
                         .arg(g.actions[i])
                         .arg(i + 1)
                         .arg(g.actions.size())
                         .arg(game.state().turn)
                         .arg(game.actor() >= 0 ? rules::sideName(game.actor()) : QStringLiteral("nobody"),
                              r.error);
            return false;
        }
    }
    return true;
}

std::unique_ptr<rules::Game> load(std::shared_ptr<const GameData> data, const QString& path, QString* error) {
    auto g = readFile(path, error);
    if (!g)
        return nullptr;
    auto game = std::make_unique<rules::Game>(std::move(data));
    if (!replay(*g, path, *game, error))
        return nullptr;
    return game;
}

bool StepReplay::open(std::shared_ptr<const GameData> data, const SaveGame& g, const QString& name,
                      QString* error, int from) {
    m_states.clear();
    m_logs.clear();
    rules::Game game(std::move(data));
    if (!replay(g, name, game, error, from))
        return false;
    m_from = std::clamp(from, 0, static_cast<int>(g.actions.size()));
    m_actions = g.actions;
    m_states.push_back(game.state());
    m_logs.emplace_back();
    for (qsizetype i = m_from; i < g.actions.size(); ++i) {
        const size_t before = game.log().size();
        const rules::ApplyResult r = game.play(g.actions[i]);
        if (!r.ok) {
            *error = at(name, QStringLiteral("$.actions[%1]").arg(i)) +
                     QStringLiteral("illegal action '%1': %2").arg(g.actions[i], r.error);
            return false;
        }
        QStringList lines;
        for (size_t k = before; k < game.log().size(); ++k)
            lines << game.log()[k].text;
        m_states.push_back(game.state());
        m_logs.push_back(lines);
    }
    m_pos = m_from;
    return true;
}

bool StepReplay::seek(int n) {
    if (n < m_from || n >= m_from + size())
        return false;
    m_pos = n;
    return true;
}

QString StepReplay::actionBefore() const {
    return m_pos > m_from ? m_actions[m_pos - 1] : QString();
}

QStringList StepReplay::logBefore() const {
    return m_logs[static_cast<size_t>(m_pos - m_from)];
}

} // namespace wp::save
