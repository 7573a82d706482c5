// Broken-data fixtures: each case in fixtures/broken-data.json copies the shipped data to a temporary
// folder, breaks one thing, loads it, and expects an error line naming the file, the JSON path and the
// problem (all the fixture's "expect" pieces in one line).
#include "data/loader.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace wp;

namespace {

bool copyData(const QString& from, const QString& to) {
    for (const char* sub : {"maps", "cards", "scenarios"}) {
        QDir src(from + "/" + sub);
        QDir().mkpath(to + "/" + sub);
        for (const QString& f : src.entryList({"*.json"}, QDir::Files))
            if (!QFile::copy(src.filePath(f), to + "/" + sub + "/" + f))
                return false;
    }
    return true;
}

// A path is dot-separated segments: "key", "key[3]", "key[id=munich]",
// "key[nationality=imperial,type=veteran]".
struct Seg {
    QString key;
    int index = -1;
    QList<QPair<QString, QString>> match;
};

QList<Seg> parsePath(const QString& path) {
    QList<Seg> segs;
    static const QRegularExpression re(R"(^([^\[]*)(?:\[([^\]]*)\])?$)");
    for (const QString& part : path.split('.')) {
        auto m = re.match(part);
        Seg s;
        s.key = m.captured(1);
        const QString sel = m.captured(2);
        if (!sel.isEmpty()) {
            bool isNum = false;
            int n = sel.toInt(&isNum);
            if (isNum)
                s.index = n;
            else
                for (const QString& kv : sel.split(',')) {
                    auto p = kv.split('=');
                    s.match.append({p.value(0), p.value(1)});
                }
        }
        segs.append(s);
    }
    return segs;
}

int findIndex(const QJsonArray& arr, const Seg& s) {
    if (s.index >= 0)
        return s.index;
    for (qsizetype i = 0; i < arr.size(); ++i) {
        const QJsonObject o = arr[i].toObject();
        bool all = true;
        for (const auto& [k, v] : s.match)
            all &= o.value(k).toVariant().toString() == v;
        if (all)
            return static_cast<int>(i);
    }
    qFatal("fixture path: no element matches");
}

// Applies op ("set", "append", "remove") at segs[pos...] inside v.
QJsonValue apply(QJsonValue v, const QList<Seg>& segs, int pos, const QString& op, const QJsonValue& value) {
    const Seg& s = segs[pos];
    const bool last = pos == segs.size() - 1;
    QJsonObject obj = v.toObject();
    if (s.index < 0 && s.match.isEmpty()) {
        if (last) {
            if (op == "set")
                obj[s.key] = value;
            else if (op == "remove")
                obj.remove(s.key);
            else if (op == "append") {
                QJsonArray a = obj[s.key].toArray();
                a.append(value);
                obj[s.key] = a;
            }
            return obj;
        }
        obj[s.key] = apply(obj[s.key], segs, pos + 1, op, value);
        return obj;
    }
    QJsonArray arr = s.key.isEmpty() ? v.toArray() : obj[s.key].toArray();
    int i = findIndex(arr, s);
    if (last) {
        if (op == "remove")
            arr.removeAt(i);
        else if (op == "set")
            arr[i] = value;
        else if (op == "append")
            arr.append(value);
    } else {
        arr[i] = apply(arr[i], segs, pos + 1, op, value);
    }
    if (s.key.isEmpty())
        return arr;
    obj[s.key] = arr;
    return obj;
}

} // namespace

class TestValidation : public QObject {
    Q_OBJECT
  private slots:
    void brokenData_data() {
        QTest::addColumn<QJsonObject>("fixture");
        QFile f(QStringLiteral(WESTPHALIA_TEST_DIR "/fixtures/broken-data.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).array();
        QVERIFY(cases.size() >= 15);
        for (const QJsonValue& c : cases)
            QTest::newRow(qPrintable(c["name"].toString())) << c.toObject();
    }

    void brokenData() {
        QFETCH(QJsonObject, fixture);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY(copyData(QStringLiteral(WESTPHALIA_SOURCE_DIR), tmp.path()));
        const QString file = tmp.path() + "/" + fixture["file"].toString();
        for (const QJsonValue& opv : fixture["ops"].toArray()) {
            const QJsonObject op = opv.toObject();
            const QString kind = op["op"].toString();
            if (kind == "delete-file") {
                QVERIFY(QFile::remove(file));
                continue;
            }
            if (kind == "raw") {
                QFile out(file);
                QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
                out.write(op["text"].toString().toUtf8());
                continue;
            }
            QFile in(file);
            QVERIFY(in.open(QIODevice::ReadOnly));
            QJsonValue root = QJsonDocument::fromJson(in.readAll()).object();
            in.close();
            root = apply(root, parsePath(op["path"].toString()), 0, kind, op["value"]);
            QFile out(file);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(QJsonDocument(root.toObject()).toJson());
        }
        LoadResult r = loadGameData(tmp.path());
        QVERIFY2(!r.ok(), "broken data must not load");
        QVERIFY(r.data == nullptr);
        QStringList expect;
        for (const QJsonValue& e : fixture["expect"].toArray())
            expect << e.toString();
        bool found = false;
        for (const DataError& e : r.errors.list()) {
            const QString line = e.toString();
            if (std::all_of(expect.begin(), expect.end(),
                            [&](const QString& piece) { return line.contains(piece); }))
                found = true;
        }
        if (!found)
            qWarning("expected a line with [%s]; got:\n%s", qPrintable(expect.join(" | ")),
                     qPrintable(r.errors.joined()));
        QVERIFY(found);
    }

    void missingDirectory() {
        LoadResult r = loadGameData(QStringLiteral("/nonexistent/westphalia-data"));
        QVERIFY(!r.ok());
        QVERIFY(r.errors.joined().contains("data directory does not exist"));
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "test_validation.moc"
