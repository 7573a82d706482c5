#include "savegame.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <zlib.h>

namespace wp {

namespace {

QByteArray gzip(const QByteArray& in) {
    z_stream z{};
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out(static_cast<qsizetype>(deflateBound(&z, static_cast<uLong>(in.size()))) + 32,
                   Qt::Uninitialized);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.constData()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int r = deflate(&z, Z_FINISH);
    out.resize(static_cast<qsizetype>(z.total_out));
    deflateEnd(&z);
    return r == Z_STREAM_END ? out : QByteArray();
}

bool gunzip(const QByteArray& in, QByteArray& out) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        return false;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.constData()));
    z.avail_in = static_cast<uInt>(in.size());
    char buf[16384];
    for (;;) {
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        const int r = inflate(&z, Z_NO_FLUSH);
        out.append(buf, static_cast<qsizetype>(sizeof buf - z.avail_out));
        if (r == Z_STREAM_END)
            break;
        if (r != Z_OK || out.size() > 64 * 1024 * 1024) { // Z_BUF_ERROR: a truncated file
            inflateEnd(&z);
            return false;
        }
    }
    inflateEnd(&z);
    return true;
}

} // namespace

bool writeSave(const QString& file, const SaveData& save, QString* error) {
    QJsonObject o;
    o.insert(QStringLiteral("format"), QStringLiteral("westphalia-save"));
    o.insert(QStringLiteral("version"), 0);
    o.insert(QStringLiteral("app"), QCoreApplication::applicationVersion());
    o.insert(QStringLiteral("fingerprint"), QString::fromLatin1(save.fingerprint));
    o.insert(QStringLiteral("scenario"), save.scenario);
    o.insert(QStringLiteral("options"), QJsonArray::fromStringList(save.options));
    o.insert(QStringLiteral("seed"), QString::number(save.seed));
    o.insert(QStringLiteral("seats"), QJsonArray::fromStringList(save.seats));
    o.insert(QStringLiteral("actions"), QJsonArray::fromStringList(save.actions));
    const QByteArray data = gzip(QJsonDocument(o).toJson(QJsonDocument::Indented));
    QSaveFile f(file);
    if (data.isEmpty() || !f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        if (error)
            *error = QStringLiteral("Could not write %1: %2").arg(file, f.errorString());
        return false;
    }
    return true;
}

bool readSave(const QString& file, SaveData& save, QString* error) {
    auto fail = [&](const QString& why) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(file, why);
        return false;
    };
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return fail(f.errorString());
    const QByteArray raw = f.readAll();
    QByteArray json;
    if (raw.startsWith("\x1f\x8b")) {
        if (!gunzip(raw, json))
            return fail(QStringLiteral("the file is damaged (it is not a complete gzip stream)"));
    } else {
        json = raw;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (!doc.isObject())
        return fail(QStringLiteral("not a Westphalia save (%1)").arg(pe.errorString()));
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("westphalia-save"))
        return fail(QStringLiteral("not a Westphalia save file"));
    if (o.value(QStringLiteral("version")).toInt(-1) != 0)
        return fail(QStringLiteral("format version %1 is not one this version of Westphalia reads")
                        .arg(o.value(QStringLiteral("version")).toInt(-1)));
    save.scenario = o.value(QStringLiteral("scenario")).toString();
    save.fingerprint = o.value(QStringLiteral("fingerprint")).toString().toLatin1();
    save.seed = o.value(QStringLiteral("seed")).toString().toULongLong();
    save.options.clear();
    for (const QJsonValue& v : o.value(QStringLiteral("options")).toArray())
        save.options << v.toString();
    save.seats.clear();
    for (const QJsonValue& v : o.value(QStringLiteral("seats")).toArray())
        save.seats << v.toString();
    save.actions.clear();
    for (const QJsonValue& v : o.value(QStringLiteral("actions")).toArray())
        save.actions << v.toString();
    return true;
}

} // namespace wp
