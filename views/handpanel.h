// The acting player's hand drawn as cards (hidden behind card backs while the hotseat cover is up), the
// opponent's hand as backs and a count only. Clicking a card selects it (the prompt panel then lists
// what it may do); double-clicking opens it in full. In a wide, low dock the cards form one row
// (overlapping if they must); in a tall one, a grid.
#pragma once

#include "data/gamedata.h"

#include <QSet>
#include <QWidget>

namespace wp {

class HandView : public QWidget {
    Q_OBJECT
  public:
    explicit HandView(const GameData& d, QWidget* parent = nullptr);
    void setCards(const QList<int>& cards, int side, bool hidden, const QSet<int>& playable);
    void setSelected(int card);
    int selected() const { return m_selected; }
    const QList<int>& cards() const { return m_cards; }
    QRect cardRect(int card) const;
    QSize sizeHint() const override { return QSize(900, 236); }
    QSize minimumSizeHint() const override { return QSize(300, 150); }

  signals:
    void cardClicked(int card);
    void cardDoubleClicked(int card);

  protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;

  private:
    const GameData& d;
    QList<int> m_cards;
    QSet<int> m_playable;
    int m_side = 0;
    bool m_hidden = false;
    int m_selected = -1;
    int m_hover = -1;
    QList<QRect> layout() const;
    int cardAt(const QPoint& pos) const;
};

class OpponentHand : public QWidget {
    Q_OBJECT
  public:
    explicit OpponentHand(QWidget* parent = nullptr);
    // `revealable`: the game is over and the hand may be shown (a click on it asks for it).
    void set(int side, int count, bool revealable = false);
    int count() const { return m_count; }
    bool revealable() const { return m_revealable; }

  signals:
    void clicked();

  protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;

  private:
    int m_side = -1, m_count = 0;
    bool m_revealable = false;
};

class HandPanel : public QWidget {
    Q_OBJECT
  public:
    explicit HandPanel(const GameData& d, QWidget* parent = nullptr);
    // The hand of `side` (the acting player); `opponentCount` cards for the other side. `revealable`: the
    // game is over, and a click on the other side's cards shows them (opponentClicked); `note` is added to
    // the title.
    void setHand(int side, const QList<int>& cards, int opponentCount, bool hidden, const QSet<int>& playable,
                 bool revealable = false, const QString& note = {});
    void clear();
    HandView* view() const { return m_view; }
    OpponentHand* opponent() const { return m_opponent; }
    QString title() const { return m_title; }

  signals:
    void cardClicked(int card);
    void cardDoubleClicked(int card);
    void titleChanged(const QString& title);
    void opponentClicked();

  protected:
    void paintEvent(QPaintEvent* e) override;

  private:
    HandView* m_view;
    OpponentHand* m_opponent;
    QString m_title;
};

} // namespace wp
